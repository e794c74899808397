/**
 * A cache entry is installed all or nothing (src/launch/npm-entry.ts): pnpm writes into a part of
 * its own that becomes the entry only when the install succeeded, so that shards sharing a cache,
 * a failed install or a killed idemscan never leave an entry that looks installed and is not. Its
 * files are hard links to the cache's one store, read-only. Real pnpm against a registry on
 * 127.0.0.1 (test/helpers/npm-registry.ts).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installEntry, newPart, sweepParts } from '../../src/launch/npm-entry.js';
import { installPackages } from '../../src/launch/npm.js';
import { isInstalled, packageDir } from '../../src/launch/npm-cache.js';
import { pointInstallsAt, startRegistry, type LocalRegistry } from '../helpers/npm-registry.js';

const PACKAGE = fileURLToPath(new URL('../fixtures/packages/npx-server', import.meta.url));
const SPEC = 'idemscan-npx-probe@1.0.0';
let registry: LocalRegistry;
let restoreEnv: () => void;

beforeAll(async () => {
  registry = await startRegistry([{ dir: PACKAGE, versions: ['1.0.0', '1.0.1'] }]);
  restoreEnv = pointInstallsAt(registry);
});
afterAll(async () => {
  restoreEnv();
  await registry.close();
});

const freshCache = () => mkdtempSync(path.join(os.tmpdir(), 'idemscan-entry-'));
const partsDir = (cache: string) => path.join(cache, 'npm', '.parts');
const parts = (cache: string) => (existsSync(partsDir(cache)) ? readdirSync(partsDir(cache)) : []);
const entries = (cache: string) => readdirSync(path.join(cache, 'npm')).filter((n) => !n.startsWith('.'));

it(
  'two installs of one entry at once both succeed, and leave the entry and no part',
  { timeout: 120_000 },
  async () => {
    const cache = freshCache();
    const [a, b] = await Promise.all([installEntry(SPEC, cache), installEntry(SPEC, cache)]);
    expect(a).toEqual({ ok: true });
    expect(b).toEqual({ ok: true });
    expect(isInstalled(cache, SPEC)).toBe(true);
    expect(parts(cache)).toEqual([]);
  },
);

it('a failed install leaves neither an entry nor a part', { timeout: 60_000 }, async () => {
  const cache = freshCache();
  const missing = await installEntry('idemscan-npx-probe@9.9.9', cache);
  expect(missing.ok).toBe(false);
  expect(missing.ok === false && missing.error).toMatch(/9\.9\.9|notarget|No matching version/i);
  expect(entries(cache)).toEqual([]);
  expect(parts(cache)).toEqual([]);
});

it('an install cut short leaves neither an entry nor a part', { timeout: 60_000 }, async () => {
  const cache = freshCache();
  registry.tarballDelayMs = 30_000;
  // An npm cache of its own: one that has the tarball already would not ask the registry for it.
  const npmCache = process.env.npm_config_cache;
  process.env.npm_config_cache = path.join(cache, 'npm-cache');
  try {
    const stop = new AbortController();
    const install = installEntry(SPEC, cache, { signal: stop.signal });
    // The marker: npm has asked for the tarball, so it is mid-install with its part in place.
    const asked = registry.requests.length;
    const deadline = Date.now() + 40_000;
    while (!registry.requests.slice(asked).some((r) => r.endsWith('.tgz')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(parts(cache)).toHaveLength(1);
    stop.abort();
    expect(await install).toMatchObject({ ok: false, canceled: true });
  } finally {
    registry.tarballDelayMs = 0;
    process.env.npm_config_cache = npmCache;
  }
  expect(entries(cache)).toEqual([]);
  expect(parts(cache)).toEqual([]);
});

it(
  'an entry an older idemscan left half-written is replaced, not taken for installed',
  { timeout: 60_000 },
  async () => {
    const cache = freshCache();
    const dir = packageDir(cache, SPEC);
    // What a killed npm of the old in-place install left: the project file, no package.
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"private":true}');
    expect(isInstalled(cache, SPEC)).toBe(false);
    expect(await installEntry(SPEC, cache)).toEqual({ ok: true });
    expect(isInstalled(cache, SPEC)).toBe(true);
  },
);

it('sweeps the parts of processes that are gone, and old parts of any, and keeps the rest', async () => {
  const cache = freshCache();
  // A pid above any pid_max (2^22) is no process.
  const dead = newPart(cache, SPEC, 5_000_000);
  const live = newPart(cache, SPEC);
  const old = newPart(cache, SPEC);
  const entry = packageDir(cache, SPEC);
  for (const dir of [dead, live, old, entry]) mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const dayAgo = new Date(Date.now() - 24 * 3600_000);
  utimesSync(old, dayAgo, dayAgo);
  await sweepParts(cache);
  expect(parts(cache)).toEqual([path.basename(live)]);
  expect(existsSync(entry)).toBe(true);
});

it(
  'two versions share the store: a file the same in both is one read-only inode, not two copies',
  { timeout: 120_000 },
  async () => {
    const cache = freshCache();
    const specs = ['idemscan-npx-probe@1.0.0', 'idemscan-npx-probe@1.0.1'];
    for (const spec of specs) expect(await installEntry(spec, cache)).toEqual({ ok: true });
    const [a, b] = specs.map((spec) => {
      const pkg = realpathSync(path.join(packageDir(cache, spec), 'node_modules', 'idemscan-npx-probe'));
      return statSync(path.join(pkg, 'server.mjs'));
    });
    expect(a!.ino).toBe(b!.ino);
    expect(a!.nlink).toBeGreaterThanOrEqual(3); // the store's file and each entry's link
    expect(a!.mode & 0o222).toBe(0);
    // Each entry's tree is its own: the package's node_modules links stay inside the entry.
    const link = path.join(packageDir(cache, specs[0]!), 'node_modules', 'idemscan-npx-probe');
    expect(realpathSync(link).startsWith(packageDir(cache, specs[0]!) + path.sep)).toBe(true);
  },
);

it(
  'a batch installs its entries in one pnpm run; one that fails it costs each an install of its own',
  { timeout: 120_000 },
  async () => {
    const cache = freshCache();
    const good = ['idemscan-npx-probe@1.0.0', 'idemscan-npx-probe@1.0.1'];
    const together = await installPackages(good, cache, 2);
    expect(together.map((r) => [r.spec, r.ok])).toEqual(good.map((s) => [s, true]));
    expect(together[0]!.ms).toBe(together[1]!.ms); // one batch, one duration
    const other = freshCache();
    const results = await installPackages([...good, 'idemscan-no-such-package@1.0.0'], other, 2);
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(results[2]!.error).toBe('npm has no package "idemscan-no-such-package" (404 from the registry)');
    expect(entries(other).sort()).toEqual(good);
    expect(parts(other)).toEqual([]);
  },
);
