/** docs/RETRY.md shows docs/examples/retry/ as it is (retry.test.ts runs it; `npm run typecheck` covers it). */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { tsBlocks } from '../helpers/doc-blocks.js';

const root = new URL('../../', import.meta.url);
const DIR = 'docs/examples/retry/';

it('the code blocks of docs/RETRY.md are the example files, verbatim, the helpers before the demo', () => {
  const doc = readFileSync(new URL('docs/RETRY.md', root), 'utf8');
  const shown = tsBlocks(doc).map((code) => {
    const first = code.slice(0, code.indexOf('\n'));
    expect(first.startsWith(`// ${DIR}`), `a block that is not an example file: ${first}`).toBe(true);
    const file = first.slice(3, first.indexOf(':'));
    expect(code).toBe(readFileSync(new URL(file, root), 'utf8'));
    return file;
  });
  expect(shown).toEqual([`${DIR}call-tool.ts`, `${DIR}lost-response.ts`]);
  expect(readdirSync(new URL(DIR, root)).sort()).toEqual(['call-tool.ts', 'lost-response.ts']);
});
