/**
 * Start-up figures of the built CLI (issue 11): wall and CPU medians of `node -e 0`, `--version`,
 * `--help`, `scan --help`; the CPU idemscan itself spends in `audit` of a trivial stdio server (its
 * own process only, the server excluded); a `scan` of N trivial servers through the CLI against the
 * raw JSON-RPC floor (bench/floor.ts) at the same concurrency. Prints figures; asserts nothing.
 *   npm run build && node --import tsx bench/startup.bench.ts [RUNS] [SERVERS] [ROUNDS]
 * IDEMSCAN_CLI=/path/to/dist/cli/main.js measures another build (e.g. an older checkout's).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { FIXTURES } from '../test/fixtures/index.js';
import { floorScan } from './floor.js';

const [runs = 15, servers = 96, rounds = 3] = process.argv.slice(2).map(Number);
const CLI = process.env.IDEMSCAN_CLI ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./cpu-at-exit.mjs', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-startup-'));
const cpuFile = path.join(dir, 'cpu');

/** One run: wall milliseconds and the process's own CPU milliseconds. */
function once(args: string[]): { wall: number; cpu: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', PRELOAD, ...args], {
    env: { ...process.env, IDEMSCAN_BENCH_CPU: cpuFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${String(r.stderr)}`);
  return { wall, cpu: Number(readFileSync(cpuFile, 'utf8')) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0).padStart(5)} ms`;

function measure(label: string, args: string[], n = runs): { wall: number; cpu: number } {
  once(args); // warm the file system cache
  const all = Array.from({ length: n }, () => once(args));
  const m = { wall: median(all.map((r) => r.wall)), cpu: median(all.map((r) => r.cpu)) };
  console.log(`${label.padEnd(34)} wall ${ms(m.wall)}   cpu ${ms(m.cpu)}`);
  return m;
}

console.log(`CLI: ${CLI}; medians of ${runs} runs (cpu: the process's own user + system time)`);
const node = measure('node -e 0', ['-e', '0']);
for (const args of [['--version'], ['--help'], ['scan', '--help']]) {
  const m = measure(`idemscan ${args.join(' ')}`, [CLI, ...args]);
  console.log(
    `${''.padEnd(34)} ratio to node -e 0: wall ${(m.wall / node.wall).toFixed(2)}x, cpu ${(m.cpu / node.cpu).toFixed(2)}x`,
  );
}
const audit = measure(
  'idemscan audit -- node modern-stdio',
  [CLI, 'audit', '-q', '--out', path.join(dir, 'audit'), '--', process.execPath, FIXTURES.modernStdio],
  Math.min(runs, 7),
);
console.log(`${''.padEnd(34)} cpu in idemscan beyond node -e 0: ${ms(audit.cpu - node.cpu)}`);

// N trivial servers through the CLI, against the floor at the same concurrency.
const concurrency = 4;
const list = path.join(dir, 'servers.json');
const entries = Array.from({ length: servers }, (_, i) => ({
  name: `modern-${i}`,
  command: process.execPath,
  args: [FIXTURES.modernStdio],
}));
writeFileSync(list, JSON.stringify({ servers: entries }));
const limit = pLimit(concurrency);
const floorOnce = async () => {
  const t = performance.now();
  await Promise.all(entries.map((e) => limit(() => floorScan(e))));
  return performance.now() - t;
};
const cliOnce = () =>
  once([CLI, 'scan', list, '-q', '--concurrency', String(concurrency), '--out', path.join(dir, 'scan')]).wall;
await floorOnce();
const floor: number[] = [];
const ours: number[] = [];
for (let r = 0; r < rounds; r++) {
  floor.push(await floorOnce());
  ours.push(cliOnce());
}
console.log(`scan of ${servers} servers, concurrency ${concurrency}, ${rounds} rounds (medians):`);
console.log(`  floor (raw client, in-process): ${ms(median(floor))}  [${floor.map(ms).join(', ')}]`);
console.log(`  idemscan scan (the CLI):        ${ms(median(ours))}  [${ours.map(ms).join(', ')}]`);
console.log(`  ratio idemscan / floor: ${(median(ours) / median(floor)).toFixed(3)}`);
rmSync(dir, { recursive: true, force: true });
