import { ruleCases } from '../helpers/rule-tester.js';

const annotations = { readOnlyHint: true };

export default ruleCases({
  valid: [
    {
      name: 'JSON data',
      input: { tools: [{ name: 'a', annotations, inputSchema: { type: 'object', maximum: 1e300 } }] },
      raises: [],
    },
  ],
  invalid: [
    {
      // A number too large to be finite: what JSON.parse makes of `1e999` in a tools/list page.
      name: 'a number that is not finite',
      input: { tools: [{ name: 'a', annotations, inputSchema: { type: 'object', maximum: Infinity } }] },
      raises: ['definition-unhashable'],
      errors: [
        { tool: 'a', severity: 'warning', evidence: 'definitionHash', message: 'the number Infinity has no JSON text' },
      ],
    },
  ],
});
