/**
 * The layers of src/ (docs/ARCHITECTURE.md), checked over the import graph the TypeScript compiler
 * sees (static imports, re-exports and `import()`), so a dynamic import cannot slip past as it
 * would past ESLint's no-restricted-imports (which eslint.config.js also runs, per folder).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderOf, importsOf, longestFunctions } from '../../bench/imports.js';

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
        const to = folderOf(d).replace(/\.ts$/, ''); // a file at the top of src/ by its name, as the table names it
        if (to !== from && !allowed.includes(to))
          offenders.push(`${path.relative(SRC, f)} -> ${path.relative(SRC, d)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('only cli/ imports census/ (src/*.ts included)', () => {
    const offenders = files
      .filter((f) => !['cli', 'census'].includes(folderOf(f)))
      .flatMap((f) =>
        importsOf(f)
          .filter((d) => folderOf(d) === 'census')
          .map((d) => `${path.relative(SRC, f)} -> ${path.relative(SRC, d)}`),
      );
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

  it('no function in cli/ or app/ is over 40 lines (issue 27)', () => {
    const inFolder = (f: string) => ['cli', 'app'].includes(folderOf(f));
    const long = longestFunctions(files.filter(inFolder), 5).filter((fn) => fn.lines > 40);
    expect(long).toEqual([]);
  });

  it('only src/probe/run.ts sends tools/call (a scan never calls a tool)', () => {
    // Sent: the method as a call's argument or a message's `method` (a table keyed by it sends nothing).
    const sends = /\(\s*['"]tools\/call['"]|method:\s*['"]tools\/call['"]/;
    const senders = files.filter((f) => sends.test(readFileSync(f, 'utf8'))).map((f) => path.relative(SRC, f));
    expect(senders).toEqual([path.join('probe', 'run.ts')]);
  });

  it('sees a long function (the length check itself works)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-layers-'));
    const file = path.join(dir, 'long.ts');
    try {
      writeFileSync(file, `class C {\n  run = () => {\n${'    void 0;\n'.repeat(40)}  };\n}\n`);
      expect(longestFunctions([file], 1).map((fn) => fn.lines)).toEqual([42]);
    } finally {
      rmSync(dir, { recursive: true });
    }
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
