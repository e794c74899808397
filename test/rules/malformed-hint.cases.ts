import { ruleCases } from '../helpers/rule-tester.js';

export default ruleCases({
  valid: [
    { name: 'boolean hints', input: { tools: [{ name: 'frob', annotations: { readOnlyHint: true } }] }, raises: [] },
    {
      name: 'a title is not a hint',
      input: { tools: [{ name: 'frob', annotations: { title: 7, destructiveHint: false } }] },
    },
  ],
  invalid: [
    {
      name: 'the string "true" is not the boolean, and nothing else fires for that tool',
      input: { tools: [{ name: 'frob', annotations: { readOnlyHint: 'true' } }] },
      raises: ['malformed-hint'],
      errors: [{ tool: 'frob', severity: 'error', evidence: 'annotations.readOnlyHint', message: 'not a boolean' }],
    },
    {
      name: 'one finding per malformed hint',
      input: { tools: [{ name: 'frob', annotations: { destructiveHint: 1, idempotentHint: null } }] },
      errors: [{ evidence: 'annotations.destructiveHint' }, { evidence: 'annotations.idempotentHint' }],
    },
  ],
});
