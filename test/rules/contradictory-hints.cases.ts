import { hints, ruleCases } from '../helpers/rule-tester.js';

export default ruleCases({
  valid: [
    {
      name: 'hints that agree with a read',
      input: { tools: [{ name: 'stats', annotations: { ...hints(true, false, true), openWorldHint: false } }] },
      raises: [],
    },
    {
      name: 'nothing about writes',
      input: { tools: [{ name: 'frob', annotations: hints(false, true, false) }] },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'warns on destructiveHint: true and notes idempotentHint: false on a read-only tool',
      input: { tools: [{ name: 'stats', annotations: hints(true, true, false) }] },
      errors: [
        { severity: 'warning', evidence: 'annotations.destructiveHint' },
        { severity: 'info', evidence: 'annotations.idempotentHint' },
      ],
    },
  ],
});
