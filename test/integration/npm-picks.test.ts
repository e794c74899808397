/**
 * What an entry's tree holds where pnpm and npm would pick differently (src/launch/pnpmfile.ts,
 * npm-engines.ts, npm-files.ts): a dependency whose highest version wants another Node, a package
 * pnpm copies because it has install scripts, and the bin's path a server sees. Real pnpm against a
 * registry on 127.0.0.1 (test/helpers/npm-registry.ts).
 */
import { mkdtempSync, readFileSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installEntry } from '../../src/launch/npm-entry.js';
import { installPackages, resolveNpmLaunch } from '../../src/launch/npm.js';
import { packageDir } from '../../src/launch/npm-cache.js';
import type { PackageTarget } from '../../src/targets/types.js';
import { pointInstallsAt, startRegistry, type LocalRegistry } from '../helpers/npm-registry.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/packages/${name}`, import.meta.url));
const LIB = 'idemscan-engines-lib';
let registry: LocalRegistry;
let restoreEnv: () => void;

beforeAll(async () => {
  const needsLib = { dependencies: { [LIB]: '^1.0.0' } };
  registry = await startRegistry([
    // 1.1.0 is the highest and the latest, and wants a Node no one runs.
    { dir: fixture('engines-lib'), versions: ['1.0.0', '1.1.0'], fields: { '1.1.0': { engines: { node: '>=99' } } } },
    {
      dir: fixture('npx-server'),
      versions: ['1.0.0', '1.0.1', '1.0.2'],
      fields: {
        '1.0.0': needsLib,
        '1.0.1': needsLib,
        // A dependency with a postinstall script, which pnpm copies rather than links.
        '1.0.2': { dependencies: { 'idemscan-install-probe': '1.0.0' } },
      },
    },
    { dir: fixture('install-probe'), versions: ['1.0.0'] },
  ]);
  restoreEnv = pointInstallsAt(registry);
});
afterAll(async () => {
  restoreEnv();
  await registry.close();
});

const freshCache = () => mkdtempSync(path.join(os.tmpdir(), 'idemscan-picks-'));
/** The version of `name` the entry's package resolves, as Node would from the package itself. */
const resolvedVersion = (cache: string, spec: string, name: string): string => {
  const pkg = realpathSync(path.join(packageDir(cache, spec), 'node_modules', 'idemscan-npx-probe'));
  const manifest = path.join(realpathSync(path.join(pkg, '..', name)), 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
};

it("picks a dependency's highest version that fits this Node, as npm does, alone and in a batch", async () => {
  const cache = freshCache();
  expect(await installEntry('idemscan-npx-probe@1.0.0', cache)).toEqual({ ok: true });
  expect(resolvedVersion(cache, 'idemscan-npx-probe@1.0.0', LIB)).toBe('1.0.0');
  const batch = ['idemscan-npx-probe@1.0.0', 'idemscan-npx-probe@1.0.1'];
  const other = freshCache();
  const results = await installPackages(batch, other, 2);
  expect(results.map((r) => r.ok)).toEqual([true, true]);
  for (const spec of batch) expect(resolvedVersion(other, spec, LIB)).toBe('1.0.0');
}, 120_000);

it('links a package pnpm copied for its install scripts to the store, when the entry runs none', async () => {
  const cache = freshCache();
  const spec = 'idemscan-npx-probe@1.0.2';
  expect(await installEntry(spec, cache)).toEqual({ ok: true });
  const pkg = realpathSync(path.join(packageDir(cache, spec), 'node_modules', 'idemscan-npx-probe'));
  const script = statSync(path.join(pkg, '..', 'idemscan-install-probe', 'postinstall.mjs'));
  expect(script.nlink).toBeGreaterThanOrEqual(2); // the store's file and this entry's
  expect(script.mode & 0o222).toBe(0);
}, 120_000);

it("launches the bin by its real path: a server that compares argv[1] with its module's path starts", async () => {
  const cache = freshCache();
  const spec = 'idemscan-npx-probe@1.0.1';
  expect(await installEntry(spec, cache)).toEqual({ ok: true });
  const target = { kind: 'package', package: { type: 'npm', spec } } as PackageTarget<'npm'>;
  const { args } = await resolveNpmLaunch(target, cache);
  expect(args[0]).toBe(realpathSync(args[0]!));
}, 120_000);
