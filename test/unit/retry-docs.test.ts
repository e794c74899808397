/** docs/RETRY.md shows docs/examples/retry/ as it is (retry.test.ts runs it; `npm run typecheck` covers it). */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

it('the code block of docs/RETRY.md is the example file, verbatim', () => {
  const doc = readFileSync(new URL('docs/RETRY.md', root), 'utf8');
  const start = doc.indexOf('```ts\n') + 6;
  const code = doc.slice(start, doc.indexOf('\n```', start) + 1);
  expect(readdirSync(new URL('docs/examples/retry/', root))).toEqual(['lost-response.ts']);
  expect(code).toBe(readFileSync(new URL('docs/examples/retry/lost-response.ts', root), 'utf8'));
});
