import { hints, ruleCases, schema } from '../helpers/rule-tester.js';

export default ruleCases({
  valid: [
    {
      name: 'not destructive',
      input: { tools: [{ name: 'create_directory', annotations: hints(false, false, true) }] },
    },
    {
      name: 'keyed',
      input: {
        tools: [{ name: 'write_file', annotations: hints(false, true, true), inputSchema: schema('clientToken') }],
      },
    },
  ],
  invalid: [
    {
      name: 'info on an overwrite',
      input: { tools: [{ name: 'write_file', annotations: hints(false, true, true) }] },
      errors: [{ severity: 'info', evidence: 'annotations.idempotentHint' }],
    },
    {
      name: 'a warning on a verb that adds something on every call, also when trusted',
      input: { tools: [{ name: 'charge_card', annotations: { idempotentHint: true } }], trusted: true },
      errors: [{ severity: 'warning', message: '"charge"' }],
    },
  ],
});
