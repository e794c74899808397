import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'output/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Regular expressions run on what untrusted servers send: none may backtrack super-linearly.
  regexp.configs['flat/recommended'],
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      // Also regexes kept in arrays or built from a source (the plugin cannot see how they are used).
      'regexp/no-super-linear-move': ['error', { ignorePartial: false, ignoreSticky: false }],
    },
  },
);
