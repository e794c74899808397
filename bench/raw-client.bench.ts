/**
 * Issue 31: idemscan against a raw JSON-RPC client in one run, both ways a scan reaches servers.
 * - stdio: SERVERS trivial stdio servers (modern-stdio.mjs) at concurrency 4, the floor
 *   (bench/floor.ts, in this process) against `scan LIST -q --concurrency 4 --out DIR` through the
 *   CLI, start-up included; medians of ROUNDS after a warm-up of each. Goal <= 1.1x.
 * - remotes: per count, a raw client over fetch (this process, concurrency 64: `server/discover`,
 *   else `initialize` + `notifications/initialized`, then `tools/list`, answers parsed and dropped)
 *   against `scan LIST --out DIR` with the default settings, and again with `--suppress`,
 *   `--baseline` and `--fail-on warning`. One fixture process serves every endpoint
 *   (hostile-http.mjs MODE=tools, 3 tools each). Goals: <= 1.5x the raw client, < 200 MiB peak.
 *   npm run build && node --import tsx bench/raw-client.bench.ts [COUNTS=10000] [SERVERS=96] [ROUNDS=3]
 * IDEMSCAN_CLI=/path/dist/cli/main.js measures another build (one built from a stash, say).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { FIXTURES } from '../test/fixtures/index.js';
import { CLI, listen, timedCli } from './cli-timing.js';
import { floorScan } from './floor.js';

const [countsArg = '10000', serversArg = '96', roundsArg = '3'] = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-raw-bench-'));
const cache = path.join(dir, 'cache');
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function rpc(url: string, body: object, session?: string): Promise<{ json: unknown; session?: string }> {
  const headers: Record<string, string> = { ...HEADERS, ...(session ? { 'mcp-session-id': session } : {}) };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  const data = res.headers.get('content-type')?.includes('text/event-stream')
    ? (text
        .split('\n')
        .find((l) => l.startsWith('data:'))
        ?.slice(5) ?? 'null')
    : text || 'null';
  return { json: JSON.parse(data), session: res.headers.get('mcp-session-id') ?? session };
}

/** The raw client's listing of one endpoint: what a scan needs, and nothing else. */
async function rawList(url: string): Promise<number> {
  const discover = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
  let session = discover.session;
  if ((discover.json as { error?: unknown }).error) {
    const init = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    session = init.session;
    await rpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  }
  const list = await rpc(url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, session);
  return ((list.json as { result?: { tools?: unknown[] } }).result?.tools ?? []).length;
}

/** The CLI's wall time, with its own child processes, in the same measure as the floor's. */
function cliMs(args: string[]): number {
  const t = performance.now();
  const run = spawnSync(process.execPath, [CLI, ...args], { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`idemscan ${args.join(' ')}: exit ${run.status}`);
  return performance.now() - t;
}

async function stdio(servers: number, rounds: number): Promise<void> {
  const entries = Array.from({ length: servers }, (_, i) => ({
    name: `modern-${i}`,
    command: process.execPath,
    args: [FIXTURES.modernStdio],
  }));
  const list = path.join(dir, 'stdio.json');
  writeFileSync(list, JSON.stringify({ servers: entries }));
  const limit = pLimit(4);
  const floorMs = async () => {
    const t = performance.now();
    await Promise.all(entries.map((e) => limit(() => floorScan(e))));
    return performance.now() - t;
  };
  const args = ['scan', list, '-q', '--concurrency', '4', '--out', path.join(dir, 'stdio-out'), '--cache-dir', cache];
  await floorMs();
  cliMs(args);
  const floor: number[] = [];
  const ours: number[] = [];
  for (let r = 0; r < rounds; r++) {
    floor.push(await floorMs());
    ours.push(cliMs(args));
  }
  console.log(`stdio: ${servers} trivial servers, concurrency 4, medians of ${rounds} rounds`);
  console.log(`  raw client ${s(median(floor))} [${floor.map(s).join(', ')}]`);
  console.log(`  idemscan   ${s(median(ours))} [${ours.map(s).join(', ')}]`);
  console.log(`  ratio ${(median(ours) / median(floor)).toFixed(2)}x (goal <= 1.1x)`);
}

async function remotes(n: number, url: string): Promise<void> {
  const urls = Array.from({ length: n }, (_, i) => `${url}/${i}`);
  // The CLI runs under spawnSync, which blocks this loop: the fixture closes the raw client's idle
  // sockets meanwhile, and fetch would reuse one before it has heard. Let it hear first.
  await new Promise((r) => setTimeout(r, 500));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const limit = pLimit(64);
  const tools = await Promise.all(urls.map((u) => limit(() => rawList(u))));
  const raw = (performance.now() - t0) / 1000;
  const rawCpu = process.cpuUsage(cpu0).user / 1e6;
  if (tools.some((t) => t !== 3)) throw new Error('the raw client missed tools');
  const list = path.join(dir, `remotes-${n}.json`);
  writeFileSync(list, JSON.stringify({ servers: urls.map((u, i) => ({ name: `remote-${i}`, url: u })) }));
  const suppress = path.join(dir, 'suppress.json');
  writeFileSync(suppress, JSON.stringify([{ rule: 'missing-annotations', reason: 'bench' }]));
  const lock = path.join(dir, `lock-${n}.json`);
  timedCli(['lock', list, '--lock', lock, '--cache-dir', cache]);
  const post = ['--suppress', suppress, '--baseline', lock, '--fail-on', 'warning'];
  console.log(`remotes: ${n}, raw client ${raw.toFixed(1)} s (user CPU ${rawCpu.toFixed(1)} s)`);
  console.log('  settings | idemscan s | ratio | peak RSS MiB');
  for (const [label, extra] of [
    ['default', []],
    ['--suppress --baseline --fail-on', post],
  ] as const) {
    const r = timedCli(['scan', list, '--out', path.join(dir, `out-${n}`), '--cache-dir', cache, ...extra]);
    console.log(`  ${label} | ${r.seconds.toFixed(1)} | ${(r.seconds / raw).toFixed(2)}x | ${r.rssMiB.toFixed(0)}`);
  }
}

console.log(`CLI: ${CLI}`);
const fixture = await listen(FIXTURES.hostileHttp, { MODE: 'tools', TOOLS: '3' });
try {
  await stdio(Number(serversArg), Number(roundsArg));
  for (const n of countsArg.split(',').map(Number)) await remotes(n, fixture.url);
} finally {
  fixture.child.kill();
  rmSync(dir, { recursive: true, force: true });
}
