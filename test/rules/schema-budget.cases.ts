import { ruleCases } from '../helpers/rule-tester.js';
import { TOOL_STEPS } from '../../src/classify/keys.js';

/** An input schema with more properties than one tool's steps. */
const wide = {
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: TOOL_STEPS + 1_000 }, (_, i) => [`p${i}`, { type: 'string' }])),
};

export default ruleCases({
  valid: [
    {
      name: 'an ordinary schema is searched to the end',
      input: {
        tools: [
          {
            name: 'create',
            annotations: { readOnlyHint: false },
            inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } },
          },
        ],
      },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'a schema past the per-tool steps is cut, and the server says so once',
      input: { tools: [{ name: 'wide', annotations: { readOnlyHint: false }, inputSchema: wide }] },
      raises: ['schema-budget'],
      errors: [
        {
          severity: 'warning',
          evidence: 'inputSchema',
          message: '1 tool input schema ("wide") was not searched to the end for key arguments',
        },
      ],
    },
  ],
});
