import { hints, ruleCases, schema } from '../helpers/rule-tester.js';

const tool = { name: 'set_status', annotations: hints(false, false, true) };

export default ruleCases({
  valid: [
    { name: 'a trusted server', input: { tools: [tool], trusted: true }, raises: [] },
    {
      name: 'a key makes the tool keyed',
      input: { tools: [{ ...tool, inputSchema: schema('idempotency_key') }] },
      raises: [],
    },
    {
      name: 'the capability makes it protocol-keyed',
      input: { tools: [tool], capabilities: { tools: { idempotency: {} } } },
      raises: ['idempotency-capability'],
    },
  ],
  invalid: [
    {
      name: 'idempotent by its hint alone, on an untrusted server',
      input: { tools: [tool] },
      raises: ['idempotent-hint-untrusted'],
      errors: [{ tool: 'set_status', severity: 'warning', evidence: 'annotations.idempotentHint', message: '--trust' }],
    },
  ],
});
