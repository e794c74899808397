/**
 * The layers of src/ (docs/ARCHITECTURE.md), checked over the import graph the TypeScript compiler
 * sees (static imports, re-exports and `import()`), so a dynamic import cannot slip past as it
 * would past ESLint's no-restricted-imports (which eslint.config.js also runs, per folder).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderOf, importsOf } from '../../bench/imports.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** What each folder may import besides itself (and node and packages): the table ESLint enforces too. Everything else is on top. */
const { LAYERS } = (await import(new URL('../../eslint.config.js', import.meta.url).href)) as {
  LAYERS: Record<string, readonly string[]>;
};

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });

describe('layers', () => {
  const files = walk(SRC);

  it('no folder imports one above it', () => {
    const offenders: string[] = [];
    for (const f of files) {
      const from = folderOf(f);
      const allowed = LAYERS[from];
      if (!allowed) continue;
      for (const d of importsOf(f)) {
        const to = folderOf(d).replace(/\.ts$/, ''); // src/scan.ts is `scan` in the table
        if (to !== from && !allowed.includes(to))
          offenders.push(`${path.relative(SRC, f)} -> ${path.relative(SRC, d)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('no command module imports another', () => {
    const command = (f: string) => /\/cli\/[\w-]+-command\.ts$|\/cli\/commands\.ts$/.test(f);
    const offenders = files.filter(command).flatMap((f) =>
      importsOf(f)
        .filter((d) => command(d) && d !== f)
        .map((d) => `${path.basename(f)} -> ${path.basename(d)}`),
    );
    expect(offenders).toEqual([]);
  });

  it('sees a violation (the check itself works)', () => {
    const fake = path.join(SRC, 'model', 'x.ts');
    expect(
      importsOf(fake, "import { a } from '../render/index.js';\nconst b = await import('../connect/observe.js');").map(
        (d) => folderOf(d),
      ),
    ).toEqual(['render', 'connect']);
  });
});
