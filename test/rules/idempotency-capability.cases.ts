import { ruleCases } from '../helpers/rule-tester.js';

export default ruleCases({
  valid: [
    { name: 'no capability', input: { tools: [], capabilities: { tools: { listChanged: false } } }, raises: [] },
    { name: 'idempotency: false', input: { tools: [], capabilities: { tools: { idempotency: false } } }, raises: [] },
  ],
  invalid: [
    {
      name: 'info, on the capability',
      input: { tools: [], capabilities: { tools: { idempotency: {} } } },
      raises: ['idempotency-capability'],
      errors: [{ severity: 'info', evidence: 'capabilities.tools.idempotency', message: 'SEP-3182' }],
    },
  ],
});
