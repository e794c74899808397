/**
 * idemscan against the floor (bench/floor.ts, the raw client) at the same concurrency, twice:
 * N local fixture servers (goal: idemscan / floor <= 1.1), and 16 real npm servers (bench/real-servers.ts,
 * installed once into $IDEMSCAN_BENCH_CACHE or ~/.cache/idemscan-bench, run in a loopback-only
 * network namespace; goal <= 1.05). Warm-up round first, then medians of ROUNDS.
 *   npm run bench -- [N=96] [CONCURRENCY=4] [ROUNDS=3] [--no-real]
 * IDEMSCAN_DIST=/path/to/dist measures another build's scan() (the code before a change, say).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pLimit from 'p-limit';
import { inputOf } from '../src/targets/kind.js';
import type { TargetInput } from '../src/targets/types.js';
import { FIXTURES } from '../test/fixtures/index.js';
import { floorScan, type FloorLaunch } from './floor.js';
import { benchCacheDir, floorLaunches, prepareReal, rerunWithoutNetwork } from './real-servers.js';

const dist = process.env.IDEMSCAN_DIST;
const { scan } = (await import(
  dist ? pathToFileURL(path.join(path.resolve(dist), 'index.js')).href : '../src/app/scan/scan.js'
)) as typeof import('../src/app/scan/scan.js');

const argv = process.argv.slice(2);
/** Internal: the real-server part, in the network namespace (`--real <cache dir>`). */
const realCache = argv[0] === '--real' ? argv[1] : undefined;
const [n = 96, concurrency = 4, rounds = 3] = argv.filter((a) => /^\d+$/.test(a)).map(Number);

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (run: () => Promise<unknown>) => {
  const t = performance.now();
  await run();
  return performance.now() - t;
};

/** Floor and idemscan over the same servers: a warm-up of each (file cache, era memo), then alternating rounds. */
async function compare(
  title: string,
  goal: number,
  targets: TargetInput[],
  launches: FloorLaunch[],
  cacheDir?: string,
) {
  const floorOnce = () => {
    const limit = pLimit(concurrency);
    return Promise.all(launches.map((l) => limit(() => floorScan(l))));
  };
  const oursOnce = async () => {
    const report = await scan(targets, { concurrency, cacheDir });
    const failed = report.servers.filter((s) => s.status !== 'ok');
    if (failed.length)
      throw new Error(`idemscan: ${failed.map((s) => `${s.name}: ${s.failure?.message.slice(0, 200)}`).join('; ')}`);
  };
  await floorOnce();
  await oursOnce();
  const floor: number[] = [];
  const ours: number[] = [];
  for (let r = 0; r < rounds; r++) {
    floor.push(await timed(floorOnce));
    ours.push(await timed(oursOnce));
  }
  const count = targets.length;
  console.log(`${title}: ${count} servers, concurrency ${concurrency}, ${rounds} rounds (medians)`);
  console.log(`  floor (raw client): ${fmt(median(floor))}  [${floor.map(fmt).join(', ')}]`);
  console.log(`  idemscan:           ${fmt(median(ours))}  [${ours.map(fmt).join(', ')}]`);
  console.log(`  ratio idemscan / floor: ${(median(ours) / median(floor)).toFixed(3)} (goal <= ${goal})`);
  console.log(
    `  per server: ${(median(ours) / count).toFixed(1)} ms (idemscan), ${(median(floor) / count).toFixed(1)} ms (floor)`,
  );
}

if (realCache) {
  const prepared = await prepareReal(realCache);
  if ('error' in prepared) throw new Error(prepared.error);
  const title = 'real npm servers (loopback-only network namespace)';
  await compare(
    title,
    1.05,
    prepared.targets.map(inputOf),
    await floorLaunches(prepared.targets, realCache),
    realCache,
  );
} else {
  if (dist) console.log(`scan() of ${dist}`);
  const targets: TargetInput[] = Array.from({ length: n }, (_, i) => ({
    name: `modern-${i}`,
    source: 'bench',
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURES.modernStdio],
  }));
  let peakRss = 0;
  const rss = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  await compare('trivial fixture servers (modern-stdio)', 1.1, targets, targets.map(launchOf));
  clearInterval(rss);
  console.log(`  peak RSS of this process: ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
  if (argv.includes('--no-real')) console.log('real npm servers: skipped (--no-real)');
  else {
    // Installed here, with the network; measured in the namespace, without it.
    const cacheDir = benchCacheDir();
    const prepared = await prepareReal(cacheDir);
    const why =
      'error' in prepared
        ? prepared.error
        : rerunWithoutNetwork(fileURLToPath(import.meta.url), [
            '--real',
            cacheDir,
            '0',
            String(concurrency),
            String(rounds),
          ]);
    if (why) console.log(`real npm servers: not measured: ${why}`);
  }
}

function launchOf(t: TargetInput): FloorLaunch {
  return { command: t.command ?? '', args: t.args ?? [] };
}
