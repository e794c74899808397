/**
 * The real npm servers of `npm run bench`: official reference servers and census entries that list
 * their tools with no credentials at all (not even fake ones), installed once into a bench cache by
 * the built CLI, run in a loopback-only network namespace, and started by the floor exactly as
 * idemscan starts them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTargetFile } from '../src/targets/load.js';
import { missingTargets, packageOf } from '../src/launch/packages.js';
import type { Target } from '../src/targets/types.js';
import type { FloorLaunch } from './floor.js';

const NAMES = [
  'everything',
  'filesystem',
  'memory',
  'sequential-thinking',
  'hello-world',
  'eslint',
  'drawio',
  'code-runner',
  'mui',
  'reddit-buddy',
  'filesystem-agent-infra',
  'excel',
  'pdf-reader',
  'searxng',
  'agentaudit',
  'primeng',
];
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LISTS = ['targets/reference.json', 'targets/popular-npm.json'];

export const benchCacheDir = (): string =>
  process.env.IDEMSCAN_BENCH_CACHE ?? path.join(os.homedir(), '.cache', 'idemscan-bench');

/** The chosen entries as the target files have them, in a list of their own; installed when missing. */
export async function prepareReal(cacheDir: string): Promise<{ targets: Target[] } | { error: string }> {
  const entries = LISTS.flatMap(
    (f) => (JSON.parse(readFileSync(path.join(ROOT, f), 'utf8')) as { servers: { name: string }[] }).servers,
  );
  const chosen = NAMES.map((n) => entries.find((e) => e.name === n)!);
  mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, 'bench-targets.json');
  writeFileSync(file, JSON.stringify({ servers: chosen }, null, 1));
  const { targets } = await loadTargetFile(file);
  if (missingTargets(targets, cacheDir, new Map()).length > 0) {
    console.log(`installing the ${targets.length} real servers into ${cacheDir} (once)...`);
    const cli = path.join(ROOT, 'dist', 'cli', 'main.js');
    const run = spawnSync(process.execPath, [cli, 'install', file, '--cache-dir', cacheDir], { stdio: 'inherit' });
    const still = missingTargets(targets, cacheDir, new Map());
    if (run.status !== 0 || still.length > 0)
      return { error: `idemscan install failed (exit ${run.status}); missing: ${still.map((p) => p.spec).join(', ')}` };
  }
  return { targets };
}

/** What app/scan/scan-server.ts starts for each: the package's launch from the cache, the target's env over its own, its cwd. */
export async function floorLaunches(targets: Target[], cacheDir: string): Promise<FloorLaunch[]> {
  return Promise.all(
    targets.map(async (t) => {
      const pkg = packageOf(t);
      if (!pkg) throw new Error(`${t.name}: not a package`);
      const ready = await pkg.kind.launch(pkg.target, cacheDir);
      const { env: own, cwd } = pkg.target;
      const env = ready.env ? { ...ready.env, ...own } : own;
      return { command: ready.command, args: ready.args, env, cwd };
    }),
  );
}

/**
 * Runs this script again with `args` in a new network namespace with only loopback up: real
 * servers may phone home, and must not reach anything. Returns why not when it cannot.
 */
export function rerunWithoutNetwork(script: string, args: string[]): string | undefined {
  const flags = process.getuid?.() === 0 ? ['-n'] : ['-rn'];
  const probe = spawnSync('unshare', [...flags, 'true']);
  if (probe.status !== 0)
    return `\`unshare ${flags.join(' ')}\` does not work here (${probe.error?.message ?? String(probe.stderr).trim()})`;
  const run = spawnSync(
    'unshare',
    [
      ...flags,
      'sh',
      '-c',
      'ip link set lo up 2>/dev/null; exec "$@"',
      'sh',
      process.execPath,
      ...process.execArgv,
      script,
      ...args,
    ],
    { stdio: 'inherit' },
  );
  return run.status === 0 ? undefined : `the run in the network namespace failed (exit ${run.status})`;
}
