import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

// The layers of src/ (docs/ARCHITECTURE.md): what each folder may import besides itself; shell/ and census/
// above app/, cli/ above all, index.ts and retry.ts (the library's entry files) on top. test/unit/layers.test.ts
// checks the same table over the import graph, dynamic imports included, reading this one table.
const BELOW_APP = [
  'model',
  'io',
  'classify',
  'targets',
  'redact',
  'launch',
  'connect',
  'probe',
  'compare',
  'render',
  'spool',
];
export const LAYERS = {
  model: [],
  // Beside model at the ground: the one bounded file read and the one bounded fetch.
  io: ['model'],
  classify: ['model', 'io'],
  targets: ['model', 'io'],
  // A Target becomes a LaunchPlan: package kinds, runners, containment. targets/ never imports it.
  launch: ['model', 'io', 'targets'],
  redact: ['model', 'io', 'targets'],
  connect: ['model', 'io', 'targets', 'launch', 'redact'],
  // The probe's experiment on a session: plan, prepare, run, judge; app/probe/probe.ts runs it on a server.
  probe: ['model', 'io', 'targets', 'launch', 'classify', 'redact', 'connect'],
  compare: ['model', 'io'],
  render: ['model', 'io', 'compare'],
  spool: ['model', 'io'],
  // 'src/app/' and its folders (scan/, probe/, saved/, ...): the use cases (values and events, never
  // printing): everything but census/ and cli/.
  app: BELOW_APP,
  // 'src/census/': publishing, the plan library's census and the registry pull, above app/; nothing below imports it.
  // 'src/shell/': what every command shares with the process: stderr lines, exit codes, option parsers, signals.
  shell: ['model', 'render', 'app'],
  census: [...BELOW_APP, 'app', 'shell'],
  // 'src/cli/': the scanner's commands, their flags, terminal progress and printing; census/ declares its own.
  cli: ['model', 'render', 'app', 'census', 'shell'],
};
// (src/index.ts is left to the test: `../index.js` from a subfolder is that folder's own index.)
const layerRules = Object.entries(LAYERS).map(([folder, allowed]) => ({
  files: [`src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(?:\\.\\./)+(?:${Object.keys(LAYERS)
              .filter((f) => f !== folder && !allowed.includes(f))
              .join('|')})(?:/|\\.js$)`,
            message: `src/${folder}/ may import only ${allowed.length ? allowed.map((a) => `src/${a}/`).join(', ') : 'node and packages'} (docs/ARCHITECTURE.md)`,
          },
        ],
      },
    ],
  },
}));

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
  ...layerRules,
);
