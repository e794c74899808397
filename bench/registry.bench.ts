/**
 * Issue 19's figures on loopback, with the built CLI under /usr/bin/time -v (seconds, peak RSS):
 *  - `registry pull` of the fixture registry (test/fixtures/registry-server.mjs): SERVERS servers,
 *    each an older and a latest version, in pages of 100 (10,000 servers: 20,000 entries, 200 pages);
 *  - `scan` of HTTP endpoints served by one process (hostile-http.mjs MODE=tools, /mcp/<i>), at
 *    --http-concurrency 4 (what every target got before HTTP had its own pool: --concurrency's
 *    default) and at the new default 64; once answering at once (loopback: the CPU is the bound)
 *    and once with each tools/list held LATENCY_MS (default 200: a remote across a network).
 *   npm run build && node --import tsx bench/registry.bench.ts [SERVERS=10000] [ENDPOINTS=2000] [LATENCY_MS=200]
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES } from '../test/fixtures/index.js';
import { listen, timedCli as timed } from './cli-timing.js';

const [serversArg = '10000', endpointsArg = '2000', latencyArg = '200'] = process.argv.slice(2);
const registryFixture = fileURLToPath(new URL('../test/fixtures/registry-server.mjs', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-registry-bench-'));

const registry = await listen(registryFixture, { SERVERS: serversArg, PAGE_SIZE: '100' });
const pullOut = path.join(dir, 'registry.json');
const pull = timed(['registry', 'pull', '--base-url', registry.url, '--out', pullOut, '-q']);
registry.child.kill();
const pulled = JSON.parse(readFileSync(pullOut, 'utf8')) as { counts: { servers: number } };
const pages = Math.ceil((Number(serversArg) * 2) / 100);
console.log(
  `registry pull: ${serversArg} servers (${Number(serversArg) * 2} entries, ${pages} pages) in ${pull.seconds.toFixed(2)} s: ` +
    `${(pages / pull.seconds).toFixed(0)} pages/s, ${((Number(serversArg) * 2) / pull.seconds).toFixed(0)} entries/s, ${pulled.counts.servers} kept, peak RSS ${pull.rssMiB.toFixed(0)} MiB, file ${(statSync(pullOut).size / 1024 / 1024).toFixed(1)} MiB (exit ${pull.code})`,
);

const n = Number(endpointsArg);
for (const delay of ['0', latencyArg]) {
  const endpoints = await listen(FIXTURES.hostileHttp, { MODE: 'tools', TOOLS: '3', DELAY_MS: delay });
  const list = path.join(dir, `remotes-${delay}.json`);
  writeFileSync(
    list,
    JSON.stringify({
      servers: Array.from({ length: n }, (_, i) => ({ name: `remote-${i}`, url: `${endpoints.url}/${i}` })),
    }),
  );
  for (const pool of ['4', '64']) {
    const out = path.join(dir, `scan-${delay}-${pool}`);
    const r = timed([
      'scan',
      list,
      '--http-concurrency',
      pool,
      '--probe-timeout',
      '1000',
      '--cache-dir',
      path.join(dir, 'cache'),
      '--out',
      out,
      '-q',
    ]);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
      summary: { serversOk: number };
    };
    console.log(
      `scan ${n} loopback HTTP servers, tools/list held ${delay} ms, --http-concurrency ${pool}: ${r.seconds.toFixed(1)} s, ${(n / r.seconds).toFixed(0)} servers/s, peak RSS ${r.rssMiB.toFixed(0)} MiB, ${report.summary.serversOk} ok (exit ${r.code})`,
    );
  }
  endpoints.child.kill();
}
