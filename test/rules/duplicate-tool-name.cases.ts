import { hints, ruleCases } from '../helpers/rule-tester.js';

export default ruleCases({
  valid: [
    {
      name: 'distinct names',
      input: {
        tools: [
          { name: 'dup', annotations: hints(true, false, true) },
          { name: 'dup2', annotations: hints(true, false, true) },
        ],
      },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'once per name, with the entries and differing verdicts',
      input: {
        tools: [
          { name: 'dup', annotations: hints(true, false, true) },
          { name: 'other', annotations: hints(true, false, true) },
          { name: 'dup', annotations: hints(false, true, false) },
        ],
      },
      errors: [{ tool: 'dup', severity: 'error', evidence: 'tools[0], tools[2]', message: 'read-only, unprotected' }],
    },
  ],
});
