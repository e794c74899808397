import { ruleCases } from '../helpers/rule-tester.js';

const first = { result: { tools: [{ name: 'a', annotations: { readOnlyHint: true } }], nextCursor: 'c1' } };

export default ruleCases({
  valid: [{ name: 'every page answered', input: { pages: [first, { result: { tools: [] } }] }, raises: [] }],
  invalid: [
    {
      name: 'a later page answers an error: the pages before it are reported',
      input: { pages: [first, { error: { code: -32603, message: 'backend down' } }] },
      raises: ['tool-list-incomplete'],
      errors: [
        {
          severity: 'error',
          evidence: 'tools/list',
          message: 'listing stopped after 1 page: tools/list failed: -32603 backend down',
        },
      ],
    },
    {
      name: 'a later page without a tools array',
      input: { pages: [first, { result: { items: [] } }] },
      errors: [{ message: 'tools/list page 2 has no "tools" array' }],
    },
  ],
});
