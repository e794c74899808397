/** The connector's defences against servers that misbehave, each with a real process or socket. */
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { scan, type ScanOptions } from '../../src/app/scan/scan.js';
import type { ServerReport } from '../../src/model/schema.js';
import { reporter } from '../../src/render/index.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES, startHttpFixture, type HttpFixture } from '../fixtures/index.js';

const hostile = (mode: string, env: Record<string, string> = {}): TargetInput => ({
  name: mode,
  source: 'test',
  transport: 'stdio',
  command: process.execPath,
  args: [FIXTURES.hostile],
  env: { MODE: mode, ...env },
});
const fast: ScanOptions = { probeTimeoutMs: 300, timeoutMs: 8_000 };
const one = async (t: TargetInput, opts = fast): Promise<ServerReport> => (await scan([t], opts)).servers[0]!;

describe('stdio', () => {
  it('reads a large answer written just before the server exits', async () => {
    const s = await one(hostile('big-then-exit'));
    expect(s.status, JSON.stringify(s.failure)).toBe('ok');
    expect(s.tools.map((t) => t.name)).toEqual(['big', 'small']);
  });

  it('refuses a protocolVersion that is not a version (an escape sequence here)', async () => {
    const s = await one(hostile('bad-version'));
    expect(s.failure?.kind).toBe('protocol');
    expect(JSON.stringify(s)).not.toContain('PWNED');
  });

  it('keeps the pages read before the server died, and says the list is incomplete', async () => {
    const s = await one(hostile('page2-crash'));
    expect(s.status).toBe('ok');
    expect(s.tools.map((t) => t.name)).toEqual(['first_page_tool']);
    const finding = s.findings.find((f) => f.rule === 'tool-list-incomplete');
    expect(finding?.severity).toBe('error');
    expect(finding?.message).toContain('panic: page 2 is corrupt');
  });

  it.skipIf(!sandboxPrefix())('a missing command under --sandbox is still a spawn failure', async () => {
    const s = await one(
      { name: 'nope', source: 'test', transport: 'stdio', command: '/nonexistent/mcp-server' },
      { ...fast, sandbox: true },
    );
    expect(s.failure?.kind).toBe('spawn');
  });

  it('caps the findings about malformed entries', async () => {
    const s = await one(hostile('many-malformed'));
    expect(s.tools.map((t) => t.name)).toEqual(['real_tool']);
    const malformed = s.findings.filter((f) => f.rule === 'malformed-tool-entry');
    expect(malformed.length).toBeLessThanOrEqual(21);
    expect(malformed.at(-1)?.message).toMatch(/1000 in all/);
  });

  it('redacts a secret the server repeats on stdout, on stderr and in a description', async () => {
    const secret = 'sk-idemscan-test-0123456789';
    const report = await scan([hostile('echo-secret', { API_KEY: secret })], fast);
    const out =
      JSON.stringify(report) + (await reporter('md')).render(report) + (await reporter('html')).render(report);
    expect(report.servers[0]!.status).toBe('ok');
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });
});

describe('era negotiation when answers come out of order', () => {
  it('a modern-only server that refuses initialize before its slow discover answer is modern', async () => {
    const s = await one(hostile('slow-discover-modern', { DISCOVER_MS: '1200' }));
    expect(s.status, JSON.stringify(s.failure)).toBe('ok');
    expect(s.protocol?.era).toBe('modern');
    expect(s.tools.map((t) => t.name)).toEqual(['modern_tool']);
  });

  it('a dual server whose discover answer trails its initialize answer is modern, and not remembered as silent', async () => {
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-dual-'));
    const target = hostile('slow-discover-dual', { DISCOVER_MS: '400' });
    for (let i = 0; i < 2; i++) {
      const s = (await scan([target], { ...fast, cacheDir })).servers[0]!;
      expect(s.protocol?.era).toBe('modern');
    }
  });
});

describe('http', () => {
  const servers: (http.Server | HttpFixture)[] = [];
  afterAll(async () => {
    for (const s of servers) {
      if ('close' in s && 'url' in s) await s.close();
      else await new Promise((r) => (s as http.Server).close(r));
    }
  });

  /** A broken SSE server: the event stream opens but never announces its endpoint. */
  async function silentSse(): Promise<string> {
    const server = http.createServer((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': connected\n\n');
        return; // and nothing more
      }
      res.writeHead(405).end();
    });
    server.on('connection', (socket) => server.once('close', () => socket.destroy()));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`;
  }

  it('an SSE stream that never announces its endpoint is bounded by --timeout', async () => {
    const url = await silentSse();
    const started = Date.now();
    const s = await one({ name: 'sse', source: 'test', transport: 'sse', url }, { timeoutMs: 1_500 });
    expect(s.failure?.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  /** An HTTP+SSE server (2024-11-05 style) that drops every request before initialize. */
  async function sseSilentBeforeInit(): Promise<string> {
    let stream: http.ServerResponse | undefined;
    let initialized = false;
    const send = (msg: unknown) => stream?.write(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
    const server = http.createServer((req, res) => {
      if (req.method === 'GET') {
        stream = res;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: endpoint\ndata: /messages\n\n');
        return;
      }
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.writeHead(202).end();
        const msg = JSON.parse(body) as { id?: number; method: string };
        if (msg.method === 'initialize') {
          initialized = true;
          send({
            jsonrpc: '2.0',
            id: msg.id,
            result: {
              protocolVersion: '2024-11-05',
              capabilities: { tools: {} },
              serverInfo: { name: 'sse-quiet', version: '1' },
            },
          });
        } else if (initialized && msg.method === 'tools/list') {
          send({
            jsonrpc: '2.0',
            id: msg.id,
            result: { tools: [{ name: 'ping', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] },
          });
        }
      });
    });
    server.on('connection', (socket) => server.once('close', () => socket.destroy()));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`;
  }

  it('an SSE server silent before initialize is legacy after the probe timeout, not a timeout', async () => {
    const url = await sseSilentBeforeInit();
    const s = await one(
      { name: 'sse-quiet', source: 'test', transport: 'sse', url },
      { probeTimeoutMs: 300, timeoutMs: 5_000 },
    );
    expect(s.status, JSON.stringify(s.failure)).toBe('ok');
    expect(s.protocol).toMatchObject({ era: 'legacy', version: '2024-11-05' });
    expect(s.tools.map((t) => t.verdict)).toEqual(['read-only']);
  });

  it('a wrong token on an SSE-only server is an auth failure', async () => {
    const f = await startHttpFixture({ MODE: 'sse', BEARER: 'right' });
    servers.push(f);
    const sse = f.url.replace(/\/mcp$/, '/sse');
    const s = await one({
      name: 'sse',
      source: 'test',
      transport: 'sse',
      url: sse,
      headers: { Authorization: 'Bearer wrong' },
    });
    expect(s.failure?.kind).toBe('auth');
  });

  it('credentials in the URL are sent as Basic auth and never reported', async () => {
    const f = await startHttpFixture({ MODE: 'legacy' });
    servers.push(f);
    const url = f.url.replace('http://', 'http://user:pa55-w0rd-xyz@') + '?token=query-secret-123';
    const report = await scan([{ name: 'creds', source: 'test', transport: 'http', url }], fast);
    expect(report.servers[0]!.status, JSON.stringify(report.servers[0]!.failure)).toBe('ok');
    const text = JSON.stringify(report);
    expect(text).not.toContain('pa55-w0rd-xyz');
    expect(text).not.toContain('query-secret-123');
  });
});
