import { ruleCases } from '../helpers/rule-tester.js';

export default ruleCases({
  valid: [
    {
      name: 'a read-named tool is left to read-name-not-read-only',
      input: { tools: [{ name: 'get_issue' }] },
      raises: ['read-name-not-read-only'],
    },
    {
      name: 'a malformed hint is left to malformed-hint',
      input: { tools: [{ name: 'frob', annotations: { readOnlyHint: 'true' } }] },
      raises: ['malformed-hint'],
    },
    {
      name: 'any one hint is enough',
      input: { tools: [{ name: 'frob', annotations: { destructiveHint: false } }] },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'a tool without hints',
      input: { tools: [{ name: 'create_widget' }] },
      raises: ['missing-annotations'],
      errors: [{ tool: 'create_widget', severity: 'warning', evidence: 'annotations', message: 'no behaviour hints' }],
    },
    {
      name: 'a tool whose annotations hold only a title',
      input: { tools: [{ name: 'frob', annotations: { title: 'Frob' } }] },
      raises: ['missing-annotations'],
      errors: [{ tool: 'frob' }],
    },
  ],
});
