/**
 * idemscan as a dependency, as docs/LIBRARY.md says to add it: the built package (`npm pack` of
 * dist/, unpacked into a consumer's node_modules) type-checked with the sample tsconfig of
 * docs/examples/consumer/ by this repository's TypeScript and by the current one (TypeScript 7,
 * which like 6 loads no @types unless told). The consumer's node_modules holds what npm would put
 * there: idemscan's dependencies (linked from this checkout, never the registry) and of the @types
 * only those idemscan depends on. And `idemscan/retry` on its own: no package loaded, none needed
 * by its types.
 */
import { execa } from 'execa';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const modules = path.join(repo, 'node_modules');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'idemscan-consumer-'));
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const HOOK = fileURLToPath(new URL('../helpers/log-imports.mjs', import.meta.url));
const REPO_TSC = path.join(modules, 'typescript', 'bin', 'tsc');

/**
 * TypeScript 7's tsc: IDEMSCAN_TS_CURRENT (a tsc binary), else a devDependency alias
 * `"typescript-current": "npm:typescript@7.0.2"` if package.json has one.
 */
function currentTsc(): string | undefined {
  const fromEnv = process.env.IDEMSCAN_TS_CURRENT;
  if (fromEnv) return fromEnv;
  const alias = path.join(modules, 'typescript-current', 'bin', 'tsc');
  return existsSync(alias) ? alias : undefined;
}
const TS_CURRENT = currentTsc();

let unpacked = '';

beforeAll(async () => {
  // dist/ is built before the integration tests; --ignore-scripts: pack it as it is, no rebuild.
  const packed = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], {
    cwd: repo,
    env: { npm_config_offline: 'true' },
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string }[];
  unpacked = path.join(tmp, 'package');
  mkdirSync(unpacked);
  await execa('tar', ['-xzf', path.join(tmp, info!.filename), '-C', unpacked, '--strip-components=1']);
}, 120_000);

/** A consumer project: idemscan in node_modules, with its dependencies or with nothing. */
function consumer(name: string, withDependencies: boolean, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  mkdirSync(path.join(dir, 'node_modules', '@types'), { recursive: true });
  mkdirSync(path.join(dir, 'src'));
  cpSync(unpacked, path.join(dir, 'node_modules', 'idemscan'), { recursive: true });
  if (withDependencies) {
    // Every package npm could have hoisted, but of the @types only idemscan's own dependencies.
    for (const entry of readdirSync(modules)) {
      if (['@types', '.bin', 'typescript', 'idemscan'].includes(entry) || entry.startsWith('.')) continue;
      symlinkSync(path.join(modules, entry), path.join(dir, 'node_modules', entry));
    }
    for (const dep of Object.keys(pkg.dependencies).filter((d) => d.startsWith('@types/')))
      symlinkSync(path.join(modules, dep), path.join(dir, 'node_modules', dep));
  }
  cpSync(path.join(repo, 'docs/examples/consumer/tsconfig.json'), path.join(dir, 'tsconfig.json'));
  // An ESM project, as idemscan is (docs/LIBRARY.md: `npm pkg set type=module`).
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: name, private: true, type: 'module' }));
  for (const [file, from] of Object.entries(files)) cpSync(from, path.join(dir, 'src', file));
  return dir;
}

const example = (name: string) => path.join(repo, 'docs/examples/library', name);

/** The consumer's build, as its author runs it: `tsc -p .`, emitting dist/ (TypeScript 6+ checks outDir/rootDir only then). */
async function typecheck(tsc: string, dir: string) {
  const r = await execa(process.execPath, [tsc, '-p', '.'], { cwd: dir, reject: false, timeout: 120_000 });
  return { code: r.exitCode, out: `${r.stdout}${r.stderr}` };
}

describe('a consumer project type-checks with the sample tsconfig, no "types" setting', () => {
  const library = () =>
    consumer(`lib-${Math.random().toString(36).slice(2)}`, true, {
      'scan-file.ts': example('scan-file.ts'),
      'one-server.ts': example('one-server.ts'),
      'render.ts': example('render.ts'),
      'retry-decision.ts': example('retry-decision.ts'),
    });

  it("the repository's TypeScript: the library examples, importing idemscan and idemscan/retry", async () => {
    const r = await typecheck(REPO_TSC, library());
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);

  it.skipIf(!TS_CURRENT)(
    `TypeScript 7 (${TS_CURRENT ?? 'absent: set IDEMSCAN_TS_CURRENT to its tsc, or add the typescript-current devDependency'})`,
    async () => {
      const version = await execa(process.execPath, [TS_CURRENT!, '--version']);
      expect(version.stdout).toMatch(/^Version [7-9]\./);
      const r = await typecheck(TS_CURRENT!, library());
      expect(r.out).toBe('');
      expect(r.code).toBe(0);
    },
    120_000,
  );

  it('idemscan/retry alone needs no package: not even zod or @types/node in node_modules', async () => {
    const dir = consumer('retry-only', false, { 'retry-decision.ts': example('retry-decision.ts') });
    for (const tsc of [REPO_TSC, ...(TS_CURRENT ? [TS_CURRENT] : [])]) {
      const r = await typecheck(tsc, dir);
      expect(r.out, tsc).toBe('');
      expect(r.code).toBe(0);
      // And what it built runs, with nothing but idemscan in node_modules.
      const ran = await execa(process.execPath, ['dist/retry-decision.js'], { cwd: dir, reject: false });
      expect(ran.stderr).toBe('');
      expect(ran.stdout).toMatch(/^with-key retry with the same key argument/);
    }
  }, 120_000);

  it('a Node client of idemscan/retry needs "types": ["node"] for its own Node code, as the docs say', async () => {
    const dir = consumer('node-client', true, { 'retry-decision.ts': example('retry-decision.ts') });
    writeFileSync(
      path.join(dir, 'src', 'client.ts'),
      "import { readFileSync } from 'node:fs';\nimport { retryDecision } from 'idemscan/retry';\n" +
        "console.log(retryDecision, readFileSync(process.argv[1]!, 'utf8').length);\n",
    );
    const tsc = TS_CURRENT ?? REPO_TSC;
    const without = await typecheck(tsc, dir);
    if (TS_CURRENT) expect(without.out).toContain("Cannot find name 'process'");
    const config = JSON.parse(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8'));
    config.compilerOptions.types = ['node'];
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config));
    const withTypes = await typecheck(tsc, dir);
    expect(withTypes.out).toBe('');
    expect(withTypes.code).toBe(0);
  }, 120_000);

  it('the check can fail: without its @types/node dependency, the root entry does not type-check', async () => {
    const dir = consumer('no-node-types', true, { 'scan-file.ts': example('scan-file.ts') });
    rmSync(path.join(dir, 'node_modules', '@types', 'node'));
    const r = await typecheck(TS_CURRENT ?? REPO_TSC, dir);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("Cannot find type definition file for 'node'");
  }, 120_000);
});

describe('idemscan/retry at run time', () => {
  it('loads only idemscan modules of its own, no node_modules package and no scanner', async () => {
    const dir = consumer('retry-run', false, {});
    const log = path.join(dir, 'imports.log');
    const r = await execa(
      process.execPath,
      [
        '--import',
        HOOK,
        '--input-type=module',
        '-e',
        "const { retryDecision, retryDecisionFromReport: fromReport } = await import('idemscan/retry'); console.log(retryDecision({ name: 'get', annotations: { readOnlyHint: true } }).decision, fromReport({ verdict: 'toString', keyArguments: [] }).decision);",
      ],
      { cwd: dir, env: { IDEMSCAN_IMPORT_LOG: log }, reject: false },
    );
    expect(r.stdout, r.stderr).toBe('safe never');
    const urls = readFileSync(log, 'utf8').trim().split('\n');
    const own = `file://${path.join(dir, 'node_modules', 'idemscan', 'dist')}/`;
    expect(urls[0]).toBe(`${own}retry.js`);
    expect(urls.filter((u) => !u.startsWith(own) && !u.startsWith('node:'))).toEqual([]);
    const loaded = urls.map((u) => u.slice(own.length));
    expect(loaded.filter((u) => /^(?:scan|index)\.js$|^(?:connect|launch|targets|render|app|cli)\//.test(u))).toEqual(
      [],
    );
    expect(loaded.filter((u) => /^(?:classify\/(?:index|rules)|model\/schema)/.test(u))).toEqual([]);
    // The verdict, the key search and placement, and the model modules they read: a handful.
    expect(loaded.length).toBeLessThanOrEqual(20);
  }, 60_000);

  it('its declarations import nothing but each other', () => {
    const dist = path.join(unpacked, 'dist');
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain('/// <reference');
      for (const [, spec] of text.matchAll(/from '([^']+)'/g)) {
        expect(spec!.startsWith('./') || spec!.startsWith('../'), `${path.relative(dist, file)} imports ${spec}`).toBe(
          true,
        );
        walk(path.resolve(path.dirname(file), spec!.replace(/\.js$/, '.d.ts')));
      }
    };
    walk(path.join(dist, 'retry.d.ts'));
    expect(seen.size).toBeGreaterThan(2);
  });
});
