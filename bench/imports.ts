/**
 * Layout figures of src/ (issue 17): files and lines per folder, the folder-level import edges, the
 * file-level import cycles and the longest functions. Import specifiers are read with the TypeScript
 * compiler API (static `import`/`export ... from` and `import()` with a literal), so what is counted
 * is what the compiler sees, not a regex's guess.
 *   node --import tsx bench/imports.ts [--json]
 * The modules each CLI command loads are measured on the built CLI by test/helpers/log-imports.mjs
 * (see `loadedBy` below; run `npm run build` first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The top folder of a file under src/ (`index.ts` and `retry.ts` are their own "folder"). */
export function folderOf(file: string): string {
  const rel = path.relative(SRC, file);
  const i = rel.indexOf(path.sep);
  return i < 0 ? rel : rel.slice(0, i);
}

/**
 * Relative import specifiers of one file, resolved to .ts files: imports and re-exports (type-only
 * ones too) and `import()` of a literal. TypeScript's pre-processor reads them without building
 * the syntax tree, a third of the time on src/ (test/unit/layers.test.ts runs it over every file).
 */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
}

/** Strongly connected components with more than one file (Tarjan, iterative enough for ~150 files). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

/**
 * The `n` longest named functions of `files` (declarations, methods, and arrow functions or
 * function expressions held by a variable or a class property), longest first; a function's
 * lines include those of the functions inside it. test/unit/layers.test.ts bounds cli/ and app/ by it.
 */
export function longestFunctions(files: string[], n: number): { name: string; lines: number }[] {
  const all: { name: string; lines: number }[] = [];
  for (const file of files) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node)
      ) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        let name =
          (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name ? node.name.getText(sf) : '';
        if (!name && (ts.isVariableDeclaration(node.parent) || ts.isPropertyDeclaration(node.parent)))
          name = node.parent.name.getText(sf);
        if (name) all.push({ name: `${path.relative(SRC, file)}:${name}()`, lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return all.sort((a, b) => b.lines - a.lines).slice(0, n);
}

/** The src/ modules the built CLI loads for `args` (dist/ paths, as counted by the load hook). */
function loadedBy(args: string[]): { all: number; dist: string[] } | undefined {
  const cli = path.join(ROOT, 'dist/cli/main.js');
  const hook = path.join(ROOT, 'test/helpers/log-imports.mjs');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-imports-'));
  const log = path.join(dir, 'imports.log');
  try {
    spawnSync(process.execPath, ['--import', hook, cli, ...args], {
      cwd: dir,
      env: { ...process.env, IDEMSCAN_IMPORT_LOG: log },
      stdio: 'ignore',
    });
    const urls = readFileSync(log, 'utf8').trim().split('\n');
    return {
      all: urls.length,
      dist: urls.filter((u) => u.includes('/dist/')).map((u) => u.slice(u.indexOf('/dist/') + 6)),
    };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A target file of one fixture server (stdio, 2025 era), for the modules a real `scan` loads. */
function oneServerList(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-imports-list-'));
  const file = path.join(dir, 'targets.json');
  const server = path.join(ROOT, 'test/fixtures/servers/legacy-stdio.mjs');
  writeFileSync(file, JSON.stringify({ servers: [{ name: 'fixture', command: process.execPath, args: [server] }] }));
  return file;
}

function main(): void {
  const files = walk(SRC).sort();
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const lines = (f: string) => readFileSync(f, 'utf8').split('\n').length - 1;

  console.log('## files and lines per folder');
  const perFolder = new Map<string, { files: number; lines: number; over120: number }>();
  for (const f of files) {
    const key = folderOf(f);
    const row = perFolder.get(key) ?? { files: 0, lines: 0, over120: 0 };
    row.files++;
    row.lines += lines(f);
    row.over120 += readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.length > 120).length;
    perFolder.set(key, row);
  }
  let total = { files: 0, lines: 0, over120: 0 };
  for (const [k, v] of [...perFolder].sort()) {
    console.log(
      `${k.padEnd(16)} ${String(v.files).padStart(4)} files ${String(v.lines).padStart(6)} lines ${String(v.over120).padStart(4)} over 120 columns`,
    );
    total = { files: total.files + v.files, lines: total.lines + v.lines, over120: total.over120 + v.over120 };
  }
  console.log(
    `${'total'.padEnd(16)} ${String(total.files).padStart(4)} files ${String(total.lines).padStart(6)} lines ${String(total.over120).padStart(4)} over 120 columns`,
  );

  console.log('\n## folder-level import edges (from -> to: imports)');
  const edges = new Map<string, number>();
  for (const [f, deps] of graph)
    for (const d of deps) {
      const a = folderOf(f);
      const b = folderOf(d);
      if (a !== b) edges.set(`${a} -> ${b}`, (edges.get(`${a} -> ${b}`) ?? 0) + 1);
    }
  for (const [k, v] of [...edges].sort()) console.log(`${k}: ${v}`);
  const pairs = [...edges.keys()].filter((k) => {
    const [a, b] = k.split(' -> ');
    return edges.has(`${b} -> ${a}`) && a! < b!;
  });
  console.log(
    `folder pairs importing each other: ${pairs.length ? pairs.map((p) => p.replace(' -> ', ' <-> ')).join(', ') : 'none'}`,
  );

  console.log('\n## file-level cycles (strongly connected components)');
  const cyc = cycles(graph);
  for (const c of cyc) console.log(c.map((f) => path.relative(SRC, f)).join(' , '));
  console.log(`${cyc.length} cycle(s)`);

  console.log('\n## modules loaded by the built CLI (all modules / of them idemscan dist files)');
  const census = path.join(ROOT, 'output/ecosystem/2026-11-30/report.json');
  const list = oneServerList();
  const commands: [string, string[]][] = [
    ['--version', ['--version']],
    ['scan', ['scan', list, '--out', 'out', '-q']],
    ['report', ['report', census, '--format', 'json,md,html', '--out', 'out']],
    ['diff', ['diff', census, census]],
    ['merge', ['merge', census, '--json', 'merged.json']],
    ['schema', ['schema']],
  ];
  for (const [label, args] of commands) {
    const r = loadedBy(args);
    const scanning = r?.dist.filter((d) =>
      /^(?:scan\.js|targets\/|launch\/|connect\/|redact\/|probe\/)/.test(d),
    ).length;
    console.log(
      `${label.padEnd(10)} ${r ? `${r.all} modules, ${r.dist.length} of idemscan, ${scanning} of them scanning code` : 'n/a'}`,
    );
  }

  console.log('\n## longest functions');
  for (const fn of longestFunctions(files, 12)) console.log(`${String(fn.lines).padStart(4)} ${fn.name}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
