/** The connector's defences against servers that misbehave, each with a real process or socket. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { scan, type ScanOptions } from '../../src/scan.js';
import type { ServerReport } from '../../src/report/schema.js';
import { reporter } from '../../src/report/reporters/index.js';
import type { Target } from '../../src/targets/types.js';
import { FIXTURES, startHttpFixture, type HttpFixture } from '../fixtures/index.js';

const hostile = (mode: string, env: Record<string, string> = {}): Target => ({
  name: mode, source: 'test', transport: 'stdio', command: process.execPath, args: [FIXTURES.hostile], env: { MODE: mode, ...env },
});
const fast: ScanOptions = { probeTimeoutMs: 300, timeoutMs: 8_000 };
const one = async (t: Target, opts = fast): Promise<ServerReport> => (await scan([t], opts)).servers[0]!;

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
    expect(s.findings.find((f) => f.rule === 'tool-list-incomplete')?.severity).toBe('error');
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
    const out = JSON.stringify(report) + reporter('md').render(report) + reporter('html').render(report);
    expect(report.servers[0]!.status).toBe('ok');
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
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

  it('a wrong token on an SSE-only server is an auth failure', async () => {
    const f = await startHttpFixture({ MODE: 'sse', BEARER: 'right' });
    servers.push(f);
    const sse = f.url.replace(/\/mcp$/, '/sse');
    const s = await one({ name: 'sse', source: 'test', transport: 'sse', url: sse, headers: { Authorization: 'Bearer wrong' } });
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
