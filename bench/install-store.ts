/**
 * Cold installs of N pinned census packages, 4 at a time, in the same run: npm with a prefix per
 * package (idemscan's installer before the shared store, with its own empty npm cache) against
 * idemscan's installer (pnpm, one content-addressed store per cache). Then a warm install through the
 * same store into fresh entries. Disk is counted by `du` over each side's directories together, so a
 * file hard-linked from the store counts once. Run: `node --import tsx bench/install-store.ts`
 * (N=16 by default; N=40 or N=all; LIST= another target file).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { loadTargetFile } from '../src/targets/load.js';
import { installPackages } from '../src/launch/npm.js';
import { packageDir } from '../src/launch/npm-cache.js';

const CONCURRENCY = 4;

/** Every Nth pinned npm entry of the list, so that a sample spans it: the same N every run. */
async function sample(list: string, n: number): Promise<string[]> {
  const { targets } = await loadTargetFile(list);
  const specs = targets.flatMap((t) => (t.kind === 'package' && t.package.type === 'npm' ? [t.package.spec] : []));
  if (!Number.isFinite(n) || n >= specs.length) return specs;
  const step = specs.length / n;
  return Array.from({ length: n }, (_, i) => specs[Math.floor(i * step)]!);
}

function npmPrefix(spec: string, root: string, cache: string): Promise<boolean> {
  const prefix = path.join(root, spec.replace(/\//g, '+'));
  mkdirSync(prefix, { recursive: true });
  const args = ['install', '--prefix', prefix, '--cache', cache, '--ignore-scripts', '--no-audit', '--no-fund'];
  const child = spawn('npm', [...args, '--no-package-lock', '--omit=dev', '--loglevel=error', spec], {
    stdio: 'ignore',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return new Promise((resolve) => child.on('close', (code) => resolve(code === 0)));
}

const bytes = (...dirs: string[]): number =>
  Number(
    execFileSync('du', ['-scB1', ...dirs], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!
      .split('\t')[0],
  );
const gb = (b: number) => `${(b / 1e9).toFixed(2)} GB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

async function main(): Promise<void> {
  const n = process.env.N === 'all' ? Infinity : Number(process.env.N ?? 16);
  const specs = await sample(process.env.LIST ?? 'targets/npm-census.json', n);
  const root = mkdtempSync(path.join(process.env.BENCH_TMP ?? os.tmpdir(), 'idemscan-install-store-'));
  const limit = pLimit(CONCURRENCY);
  const npmRoot = path.join(root, 'npm-prefixes');
  const npmCache = path.join(root, 'npm-cache');
  const npm = await timed(() => Promise.all(specs.map((s) => limit(() => npmPrefix(s, npmRoot, npmCache)))));
  const npmOk = npm.value.filter(Boolean).length;
  const npmBytes = bytes(npmRoot, npmCache);
  const npmEntries = bytes(npmRoot);
  rmSync(npmRoot, { recursive: true, force: true });
  const cache = path.join(root, 'idemscan-cache');
  const cold = await timed(() => installPackages(specs, cache, CONCURRENCY));
  const storeBytes = bytes(cache);
  for (const s of specs) rmSync(packageDir(cache, s), { recursive: true, force: true });
  const warm = await timed(() => installPackages(specs, cache, CONCURRENCY));
  const ok = cold.value.filter((r) => r.ok).length;
  console.log(`${specs.length} packages, ${CONCURRENCY} at a time, cold:`);
  console.log(
    `  npm, a prefix each:  ${seconds(npm.ms)}, ${gb(npmBytes)} (entries ${gb(npmEntries)} + its cache), ${npmOk} ok`,
  );
  console.log(`  idemscan (store):    ${seconds(cold.ms)}, ${gb(storeBytes)} (entries, store and metadata), ${ok} ok`);
  console.log(`  ratio: time ${(cold.ms / npm.ms).toFixed(2)}x, disk ${(storeBytes / npmBytes).toFixed(2)}x`);
  console.log(`warm store, fresh entries: ${seconds(warm.ms)}, ${warm.value.filter((r) => r.ok).length} ok`);
  for (const r of cold.value.filter((x) => !x.ok)) console.log(`  failed ${r.spec}: ${r.error}`);
  if (!process.env.KEEP) rmSync(root, { recursive: true, force: true });
  else console.log(`kept ${root}`);
}

await main();
