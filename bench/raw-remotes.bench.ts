/**
 * Issue 31: idemscan against a raw JSON-RPC client over the same loopback remotes, in one run.
 * The raw client (this file, one process, concurrency 64): per endpoint `server/discover`, else
 * `initialize` + `notifications/initialized`, then `tools/list`, answers parsed and dropped. idemscan:
 * `scan LIST --out DIR` with the default settings. Both against one fixture process serving every
 * endpoint (hostile-http.mjs MODE=tools, 3 tools each).
 *   npm run build && node --import tsx bench/raw-remotes.bench.ts [COUNTS=2000,10000]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { FIXTURES } from '../test/fixtures/index.js';
import { CLI, listen, timedCli } from './cli-timing.js';

const counts = (process.argv[2] ?? '2000,10000').split(',').map(Number);
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-raw-bench-'));
const fixture = await listen(FIXTURES.hostileHttp, { MODE: 'tools', TOOLS: '3' });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

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

console.log(`CLI: ${CLI}`);
console.log('remotes | raw s | idemscan s | ratio | raw user CPU s | idemscan peak RSS MiB');
for (const n of counts) {
  const urls = Array.from({ length: n }, (_, i) => `${fixture.url}/${i}`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const limit = pLimit(64);
  const tools = await Promise.all(urls.map((u) => limit(() => rawList(u))));
  const raw = (performance.now() - t0) / 1000;
  const rawCpu = process.cpuUsage(cpu0).user / 1e6;
  if (tools.some((t) => t !== 3)) throw new Error('the raw client missed tools');
  const list = path.join(dir, `remotes-${n}.json`);
  writeFileSync(list, JSON.stringify({ servers: urls.map((url, i) => ({ name: `remote-${i}`, url })) }));
  const r = timedCli(['scan', list, '--out', path.join(dir, `out-${n}`), '--cache-dir', path.join(dir, 'cache')]);
  console.log(
    `${n} | ${raw.toFixed(1)} | ${r.seconds.toFixed(1)} | ${(r.seconds / raw).toFixed(2)}x | ${rawCpu.toFixed(1)} | ${r.rssMiB.toFixed(0)}`,
  );
}
fixture.child.kill();
