/**
 * Issue 19's curve: servers vs seconds vs peak memory for a scan of N remote endpoints with the
 * default settings (`scan LIST --out DIR`: --http-concurrency 64, report.json, the table), all N
 * served on loopback by one fixture process (hostile-http.mjs MODE=tools, /mcp/<i>, 3 tools each).
 * The goals: 5,000 in <= 45 s and <= 300 MiB peak RSS; 10,000 in <= 90 s and <= 300 MiB.
 * `post` adds the post-processors (issue 27): `--suppress` (every missing-annotations finding),
 * `--baseline` (the lock of the same list, written first by `idemscan lock`) and `--fail-on warning`;
 * 10,000 of them: 344-348 MiB before app/scan/post-process.ts and checkScan, 244-246 MiB after (183 without).
 * `lock` measures `idemscan lock LIST --lock FILE` instead of the scan (the MiB column: the lock file).
 * Spool reads and figures of 10,000 (issue 27, round 2; wall times under load, noisy): default 198 MiB
 * before, 196 after (4 reads, then 2); post 258 and 258 (4, then 2); lock 486 MiB before, 312 after
 * (the lock a fold of the first pass, and the heap's growth limited as a spooled scan's).
 *   npm run build && node --import tsx bench/remotes.bench.ts [COUNTS=1000,2000,5000,10000] [ROUNDS=1] [post|lock]
 * IDEMSCAN_CLI=/path/to/dist/cli/main.js measures another build.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES } from '../test/fixtures/index.js';
import { CLI, listen, timedCli } from './cli-timing.js';

const [countsArg = '1000,2000,5000,10000', roundsArg = '1', mode = ''] = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-remotes-bench-'));
const endpoints = await listen(FIXTURES.hostileHttp, { MODE: 'tools', TOOLS: '3' });
const suppressFile = path.join(dir, 'suppress.json');
writeFileSync(suppressFile, JSON.stringify([{ rule: 'missing-annotations', reason: 'bench' }]));
const modes: Record<string, string> = {
  post: ' (with --suppress, --baseline, --fail-on warning)',
  lock: ' (idemscan lock)',
};
console.log(`CLI: ${CLI}${modes[mode] ?? ''}`);
console.log('servers | seconds | servers/s | peak RSS MiB | report.json MiB | ok');
try {
  for (const n of countsArg.split(',').map(Number)) {
    const list = path.join(dir, `remotes-${n}.json`);
    const servers = Array.from({ length: n }, (_, i) => ({ name: `remote-${i}`, url: `${endpoints.url}/${i}` }));
    writeFileSync(list, JSON.stringify({ servers }));
    const cache = path.join(dir, 'cache');
    const post: string[] = [];
    if (mode === 'post') {
      const lock = path.join(dir, `lock-${n}.json`);
      timedCli(['lock', list, '--lock', lock, '--cache-dir', cache]);
      post.push('--suppress', suppressFile, '--baseline', lock, '--fail-on', 'warning');
    }
    for (let round = 0; round < Number(roundsArg); round++) {
      const out = path.join(dir, `out-${n}-${round}`);
      const lockFile = path.join(out, 'lock.json');
      const r =
        mode === 'lock'
          ? timedCli(['lock', list, '--lock', lockFile, '--out', out, '--cache-dir', cache])
          : timedCli(['scan', list, '--out', out, '--cache-dir', cache, ...post]);
      const text = readFileSync(mode === 'lock' ? lockFile : path.join(out, 'report.json'), 'utf8');
      const ok =
        mode === 'lock'
          ? (JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { summary: { serversOk: number } })
              .summary.serversOk
          : (JSON.parse(text) as { summary: { serversOk: number } }).summary.serversOk;
      console.log(
        `${n} | ${r.seconds.toFixed(1)} | ${(n / r.seconds).toFixed(0)} | ${r.rssMiB.toFixed(0)} | ${(text.length / 1024 / 1024).toFixed(1)} | ${ok} (exit ${r.code})`,
      );
      rmSync(out, { recursive: true, force: true });
    }
  }
} finally {
  endpoints.child.kill();
  rmSync(dir, { recursive: true, force: true });
}
