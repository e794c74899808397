import { ruleCases } from '../helpers/rule-tester.js';

const page = (name: string, nextCursor?: unknown) => ({
  result: { tools: [{ name, annotations: { readOnlyHint: true } }], nextCursor },
});

export default ruleCases({
  valid: [
    {
      name: 'a new cursor on every page, then none',
      input: { pages: [page('a', 'c1'), page('b', 'c2'), page('c')] },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'a cursor given again: listing stops there, the tools read are kept',
      input: { pages: [page('a', 'c1'), page('b', 'c1'), page('never-read')] },
      raises: ['pagination-loop'],
      errors: [
        {
          severity: 'warning',
          evidence: 'tools/list',
          message: 'the server returned cursor it had already given after page 2; stopped',
        },
      ],
    },
  ],
});
