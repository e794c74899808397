import { ruleCases } from '../helpers/rule-tester.js';

const page = (nextCursor: unknown) => ({
  result: { tools: [{ name: 'a', annotations: { readOnlyHint: true } }], nextCursor },
});

export default ruleCases({
  valid: [
    { name: 'no cursor: the list ends', input: { pages: [page(undefined)] }, raises: [] },
    { name: 'null or an empty string end it too', input: { pages: [page(null)] }, raises: [] },
    { name: 'an empty string', input: { pages: [page('')] }, raises: [] },
  ],
  invalid: [
    {
      name: 'a number',
      input: { pages: [page(7), page('never-read')] },
      raises: ['pagination-invalid-cursor'],
      errors: [
        { severity: 'warning', evidence: 'tools/list', message: 'nextCursor is a number, not a string; stopped' },
      ],
    },
    { name: 'an object', input: { pages: [page({ next: 2 })] }, errors: [{ message: 'nextCursor is a object' }] },
  ],
});
