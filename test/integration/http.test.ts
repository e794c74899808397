/** Real HTTP servers on 127.0.0.1: Streamable HTTP of both eras, HTTP+SSE, bearer auth. */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import type { TargetInput } from '../../src/targets/types.js';
import { PAYMENTS_VERDICTS, startHttpFixture, type HttpFixture } from '../fixtures/index.js';

const started: HttpFixture[] = [];
afterAll(async () => {
  await Promise.all(started.map((f) => f.close()));
});

async function serve(env: Record<string, string>): Promise<HttpFixture> {
  const f = await startHttpFixture(env);
  started.push(f);
  return f;
}

const http = (url: string, extra: Partial<TargetInput> = {}): TargetInput => ({
  name: 'http',
  source: 'test',
  transport: 'http',
  url,
  ...extra,
});
const opts = { probeTimeoutMs: 1_000, timeoutMs: 8_000 };

describe('Streamable HTTP', () => {
  it.each([
    ['modern', 'modern', '2026-07-28'],
    ['dual', 'modern', '2026-07-28'],
    ['legacy', 'legacy', '2025-11-25'],
  ])('%s server: era %s, every verdict', async (mode, era, version) => {
    const f = await serve({ MODE: mode });
    const report = await scan([http(f.url)], opts);
    const s = report.servers[0]!;
    expect(s.failure).toBeUndefined();
    expect(s.protocol).toMatchObject({ era, version });
    expect(Object.fromEntries(s.tools.map((t) => [t.name, t.verdict]))).toEqual(PAYMENTS_VERDICTS);
  });
});

describe('HTTP+SSE with bearer auth', () => {
  it('falls back to the SSE transport when POST is refused, sending the declared header', async () => {
    const f = await serve({ MODE: 'sse', BEARER: 'sse-secret-token' });
    const report = await scan([http(f.url, { headers: { Authorization: 'Bearer sse-secret-token' } })], opts);
    const s = report.servers[0]!;
    expect(s.failure).toBeUndefined();
    expect(s.protocol?.era).toBe('legacy');
    expect(s.tools).toHaveLength(Object.keys(PAYMENTS_VERDICTS).length);
    expect(JSON.stringify(report)).not.toContain('sse-secret-token');
  });

  it('a declared sse target goes straight to the SSE transport', async () => {
    const f = await serve({ MODE: 'sse', BEARER: 'tok' });
    const report = await scan(
      [http(f.url.replace(/\/mcp$/, '/sse'), { transport: 'sse', headers: { Authorization: 'Bearer tok' } })],
      opts,
    );
    expect(report.servers[0]!.status).toBe('ok');
  });

  it.each([
    ['legacy', undefined],
    ['legacy', 'Bearer wrong'],
    ['sse', 'Bearer wrong'],
    ['modern', undefined],
  ])('%s server with a missing or wrong token (%s) is an auth failure', async (mode, header) => {
    const f = await serve({ MODE: mode, BEARER: 'right' });
    const report = await scan([http(f.url, { headers: header ? { Authorization: header } : undefined })], opts);
    expect(report.servers[0]!.failure?.kind).toBe('auth');
  });
});

describe('unreachable', () => {
  it('a refused connection is unreachable', async () => {
    const port = await closedPort();
    const report = await scan([http(`http://127.0.0.1:${port}/mcp`)], opts);
    expect(report.servers[0]!.failure?.kind).toBe('unreachable');
  });
});

/** A port nothing listens on: bind one, note it, close it. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
