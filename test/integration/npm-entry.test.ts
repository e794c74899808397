/**
 * A cache entry is installed all or nothing (src/launch/npm-entry.ts): npm writes into a part of
 * its own that becomes the entry only when the install succeeded, so that shards sharing a cache,
 * a failed install or a killed idemscan never leave an entry that looks installed and is not.
 * Real npm against a registry on 127.0.0.1 (test/helpers/npm-registry.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installEntry, newPart, sweepParts } from '../../src/launch/npm-entry.js';
import { isInstalled, packageDir } from '../../src/launch/npm-cache.js';
import { startRegistry, type LocalRegistry } from '../helpers/npm-registry.js';

const PACKAGE = fileURLToPath(new URL('../fixtures/packages/npx-server', import.meta.url));
const SPEC = 'idemscan-npx-probe@1.0.0';
let registry: LocalRegistry;
const saved = { ...process.env };

beforeAll(async () => {
  registry = await startRegistry([{ dir: PACKAGE, versions: ['1.0.0'] }]);
  // installEntry runs npm with the user's npm settings (npmEnv): here, this registry and its cache.
  Object.assign(process.env, registry.env());
});
afterAll(async () => {
  for (const k of Object.keys(registry.env())) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await registry.close();
});

const freshCache = () => mkdtempSync(path.join(os.tmpdir(), 'idemscan-entry-'));
const partsDir = (cache: string) => path.join(cache, 'npm', '.parts');
const parts = (cache: string) => (existsSync(partsDir(cache)) ? readdirSync(partsDir(cache)) : []);
const entries = (cache: string) => readdirSync(path.join(cache, 'npm')).filter((n) => n !== '.parts');

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
    const install = installEntry(SPEC, cache, stop.signal);
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
