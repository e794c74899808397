/**
 * Our Streamable HTTP client (connect/streamable.ts) against a raw JSON-RPC server on 127.0.0.1
 * that answers each path its own way: answers as event streams cut anywhere, a session id, the
 * headers a request derives from its body, redirects within and out of the origin, and streams
 * that end unanswered or run past the bound.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scanTuned } from '../../src/app/scan/scan.js';
import type { InternalScanOptions } from '../../src/app/scan/scan-options.js';

const BOUND = 64 * 1024;
const SESSION = 'session-7f3a';

interface Seen {
  path: string;
  host: string;
  method: string;
  headers: http.IncomingHttpHeaders;
}
const seen: Seen[] = [];
let server: http.Server;
let base = '';

function result(msg: { method?: string }): Record<string, unknown> {
  if (msg.method === 'initialize')
    return { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw' } } };
  if (msg.method === 'tools/list') return { result: { tools: [{ name: 'send', inputSchema: { type: 'object' } }] } };
  return { error: { code: -32601, message: 'Method not found' } };
}

/** An answer as an event stream, with a comment, an event of another type and CRLF lines, written in 7-byte pieces. */
async function events(res: http.ServerResponse, text: string) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const stream = `: keep-alive\r\nevent: ping\r\ndata: not json\r\n\r\nid: 1\r\nevent: message\r\ndata: ${text}\r\n\r\n`;
  for (let at = 0; at < stream.length; at += 7) {
    res.write(stream.slice(at, at + 7));
    await new Promise((r) => setImmediate(r));
  }
  res.end();
}

function answer(
  path: string,
  msg: { id?: number; method?: string },
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  if (path === '/old') return void res.writeHead(307, { location: '/events' }).end();
  if (path === '/away') return void res.writeHead(307, { location: base.replace('127.0.0.1', 'localhost') }).end();
  if (path === '/session' && msg.method !== 'initialize' && req.headers['mcp-session-id'] !== SESSION)
    return void res.writeHead(400).end();
  if (msg.id === undefined) return void res.writeHead(202).end();
  const text = JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...result(msg) });
  if (msg.method === 'tools/list' && path === '/unanswered') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return void res.end('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
  }
  if (msg.method === 'tools/list' && path === '/flood') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return void res.end(`: ${'x'.repeat(BOUND * 2)}\n\n`);
  }
  if (path === '/events') return void events(res, text);
  const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
  if (msg.method === 'initialize' && path === '/session') headers['mcp-session-id'] = SESSION;
  res.writeHead(200, headers).end(text);
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.push({ path, host: req.headers.host ?? '', method: req.method ?? '', headers: req.headers });
      if (req.method !== 'POST') return void res.writeHead(405).end();
      answer(path, JSON.parse(body || '{}') as { id?: number; method?: string }, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

const scanOne = async (path: string) =>
  (
    await scanTuned([{ name: 'raw', source: 'test', transport: 'http', url: `${base}${path}` }], {
      probeTimeoutMs: 1_000,
      timeoutMs: 10_000,
      maxFrameBytes: BOUND,
    } satisfies InternalScanOptions)
  ).servers[0]!;

it('reads answers from event streams cut anywhere, skipping comments and other events', async () => {
  const s = await scanOne('/events');
  expect(s.failure).toBeUndefined();
  expect(s.tools.map((t) => t.name)).toEqual(['send']);
});

it('sends the session id the initialize answer named, and the negotiated version, on every later request', async () => {
  seen.length = 0;
  const s = await scanOne('/session');
  expect(s.failure).toBeUndefined();
  const posts = seen.filter((r) => r.method === 'POST');
  expect(posts.map((r) => r.headers['mcp-session-id'])).toEqual([undefined, undefined, SESSION, SESSION]);
  expect(posts.map((r) => r.headers['mcp-protocol-version'])).toEqual([
    '2026-07-28',
    undefined,
    '2025-11-25',
    '2025-11-25',
  ]);
  // The era probe claims 2026-07-28 in its body: it carries the headers that claim derives; nothing later does.
  expect(posts.map((r) => r.headers['mcp-method'])).toEqual(['server/discover', undefined, undefined, undefined]);
  expect(posts.every((r) => r.headers.accept === 'application/json, text/event-stream')).toBe(true);
  // No standalone GET stream: a scan reads every answer on its own POST.
  expect(seen.filter((r) => r.method === 'GET')).toEqual([]);
});

it('follows a 307 within the origin with the same body', async () => {
  seen.length = 0;
  const s = await scanOne('/old');
  expect(s.failure).toBeUndefined();
  expect(s.tools.map((t) => t.name)).toEqual(['send']);
  expect(seen.filter((r) => r.path === '/events').length).toBe(seen.filter((r) => r.path === '/old').length);
});

it('does not follow a redirect out of the origin, and says where it pointed', async () => {
  seen.length = 0;
  const s = await scanOne('/away');
  expect(s.status).toBe('failed');
  expect(s.failure?.message).toContain(`a redirect to ${base.replace('127.0.0.1', 'localhost')}/, not followed`);
  expect(seen.filter((r) => r.host.startsWith('localhost'))).toEqual([]);
});

it('fails when an event stream ends without the answer, not at the deadline (no resumption would bring it)', async () => {
  const s = await scanOne('/unanswered');
  expect(s.status).toBe('failed');
  expect(s.failure).toEqual({
    kind: 'protocol',
    message: 'the server ended its event stream without answering tools/list',
  });
});

it('refuses an event stream past the bound', async () => {
  const s = await scanOne('/flood');
  expect(s.status).toBe('failed');
  expect(s.failure?.message).toMatch(/exceeded 65536 bytes/);
});
