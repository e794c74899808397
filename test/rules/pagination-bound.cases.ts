import { ruleCases } from '../helpers/rule-tester.js';

const page = (name: string, nextCursor?: string) => ({
  result: { tools: [{ name, annotations: { readOnlyHint: true } }], nextCursor },
});
const pages = [page('a', 'c1'), page('b', 'c2'), page('c')];

export default ruleCases({
  valid: [{ name: 'three pages within --max-pages 3', input: { pages, limits: { maxPages: 3 } }, raises: [] }],
  invalid: [
    {
      name: 'a third page past --max-pages 2',
      input: { pages, limits: { maxPages: 2 } },
      raises: ['pagination-bound'],
      errors: [{ severity: 'warning', evidence: 'tools/list', message: 'stopped after 2 pages (--max-pages)' }],
    },
  ],
});
