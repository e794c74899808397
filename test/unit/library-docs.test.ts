/** docs/LIBRARY.md shows the example files as they are, and `npm run typecheck` covers them. */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { tsBlocks } from '../helpers/doc-blocks.js';

const root = new URL('../../', import.meta.url);
const DOC = readFileSync(new URL('docs/LIBRARY.md', root), 'utf8');
const DIR = 'docs/examples/library/';

it('every code block of docs/LIBRARY.md is an example file, verbatim, and every example file is shown', () => {
  const shown = tsBlocks(DOC).map((code) => {
    const first = code.slice(0, code.indexOf('\n'));
    expect(first.startsWith(`// ${DIR}`), `a block that is not an example file: ${first}`).toBe(true);
    const file = first.slice(3, first.indexOf(':'));
    expect(code).toBe(readFileSync(new URL(file, root), 'utf8'));
    return file;
  });
  expect(shown.sort()).toEqual(
    readdirSync(new URL(DIR, root))
      .map((f) => DIR + f)
      .sort(),
  );
});

it("the examples are type-checked: tsconfig.json includes them and maps 'idemscan' and 'idemscan/retry' to the source", () => {
  const config = JSON.parse(readFileSync(new URL('tsconfig.json', root), 'utf8'));
  expect(config.include).toContain('docs/examples');
  expect(config.compilerOptions.paths.idemscan).toEqual(['./src/index.ts']);
  expect(config.compilerOptions.paths['idemscan/retry']).toEqual(['./src/retry.ts']);
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  expect(pkg.exports['./retry']).toEqual({ types: './dist/retry.d.ts', default: './dist/retry.js' });
});

it('the page opens with the install, the sample tsconfig (the file, verbatim) and the retry example', () => {
  const json = DOC.indexOf('```json\n');
  expect(json).toBeGreaterThan(0);
  expect(DOC.slice(json + 8, DOC.indexOf('\n```', json + 8) + 1)).toBe(
    readFileSync(new URL('docs/examples/consumer/tsconfig.json', root), 'utf8'),
  );
  expect(DOC.indexOf('npm install')).toBeLessThan(json);
  expect(tsBlocks(DOC)[0]).toContain("from 'idemscan/retry'");
  expect(DOC).not.toMatch(/npm install(?: -g)? idemscan(?:@|\s|$)/);
});
