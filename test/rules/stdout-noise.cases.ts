import { ruleCases } from '../helpers/rule-tester.js';

// stdout is a stdio server's: these cases run on a real process (test/integration/rules-stdio.test.ts).
const tools = [{ name: 'ping_db', annotations: { readOnlyHint: true } }];

export default ruleCases({
  valid: [{ name: 'nothing but JSON-RPC on stdout', input: { tools, stdout: [] }, raises: [] }],
  invalid: [
    {
      name: 'a banner before the first answer',
      input: { tools, stdout: ['Server starting... v1.2'] },
      raises: ['stdout-noise'],
      errors: [
        {
          severity: 'warning',
          evidence: 'stdout',
          message: '1 line on stdout was not JSON-RPC (first: "Server starting... v1.2")',
        },
      ],
    },
    {
      name: 'counted, the first one quoted',
      input: { tools, stdout: ['log: one', 'log: two', 'log: three'] },
      errors: [{ message: '3 lines on stdout were not JSON-RPC (first: "log: one")' }],
    },
  ],
});
