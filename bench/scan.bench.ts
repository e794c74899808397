/**
 * idemscan against the floor (bench/floor.ts) over N local fixture servers at the same
 * concurrency. Prints both wall times and their ratio; the goal is idemscan / floor <= 1.3.
 *   npm run bench -- [N] [CONCURRENCY] [ROUNDS]
 */
import pLimit from 'p-limit';
import { scan } from '../src/scan.js';
import type { Target } from '../src/targets/types.js';
import { FIXTURES } from '../test/fixtures/index.js';
import { floorScan } from './floor.js';

const [n = 96, concurrency = 4, rounds = 3] = process.argv.slice(2).map(Number);
const targets: Target[] = Array.from({ length: n }, (_, i) => ({
  name: `modern-${i}`,
  source: 'bench',
  transport: 'stdio',
  command: process.execPath,
  args: [FIXTURES.modernStdio],
}));

async function timeIdemscan(): Promise<number> {
  const t = performance.now();
  const report = await scan(targets, { concurrency });
  if (report.summary.serversOk !== n) throw new Error(`idemscan: ${report.summary.serversFailed} servers failed`);
  return performance.now() - t;
}

async function timeFloor(): Promise<number> {
  const limit = pLimit(concurrency);
  const t = performance.now();
  await Promise.all(targets.map((x) => limit(() => floorScan(x.command!, x.args!))));
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ours: number[] = [];
const floor: number[] = [];
let peakRss = 0;
const rss = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
await timeFloor(); // warm the file system cache for both
for (let r = 0; r < rounds; r++) {
  floor.push(await timeFloor());
  ours.push(await timeIdemscan());
}
clearInterval(rss);

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(`servers: ${n}, concurrency: ${concurrency}, rounds: ${rounds} (medians)`);
console.log(`floor (raw client): ${fmt(median(floor))}  [${floor.map(fmt).join(', ')}]`);
console.log(`idemscan:           ${fmt(median(ours))}  [${ours.map(fmt).join(', ')}]`);
console.log(`ratio idemscan / floor: ${(median(ours) / median(floor)).toFixed(3)}`);
console.log(`per server: ${(median(ours) / n).toFixed(1)} ms (idemscan), ${(median(floor) / n).toFixed(1)} ms (floor)`);
console.log(`peak RSS of this process: ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
