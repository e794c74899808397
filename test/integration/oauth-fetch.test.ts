/**
 * The one fetch every OAuth request goes through: plain http only to the MCP server's own loopback
 * origin, or between a loopback MCP server and another loopback origin (whatever its spelling),
 * redirects only within one origin, bounded bodies, and no body the SDK could quote unless it is
 * JSON. Real servers on 127.0.0.1 (two ports are two origins).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizationUrlProblem, guardedFetch, isLoopback, RefusedUrlError } from '../../src/connect/oauth/fetch.js';

let a: Server;
let b: Server;
let aUrl = '';
let bUrl = '';
const hits: string[] = [];

async function serve(handler: Parameters<typeof createServer>[1]): Promise<[Server, string]> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return [server, `http://127.0.0.1:${(server.address() as { port: number }).port}`];
}

beforeAll(async () => {
  [b, bUrl] = await serve((req, res) => {
    hits.push(`b ${req.url}`);
    res.end('{"elsewhere":true}');
  });
  [a, aUrl] = await serve((req, res) => {
    hits.push(`a ${req.url}`);
    if (req.url === '/same') return res.writeHead(302, { location: '/final' }).end();
    if (req.url === '/cross') return res.writeHead(302, { location: `${bUrl}/final` }).end();
    if (req.url === '/big') return res.end('x'.repeat(300 * 1024));
    if (req.url === '/internal') return res.writeHead(500, { 'content-type': 'text/plain' }).end('db_password=hunter2');
    if (req.url === '/internal-json')
      return res.writeHead(500, { 'content-type': 'application/json' }).end('{"db_password":"hunter2"}');
    if (req.url === '/oauth-error')
      return res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"error":"invalid_client","error_description":"unknown client"}');
    if (req.url === '/text') return res.end('db_password=hunter2');
    res.end('{"ok":true}');
  });
});

afterAll(() => {
  for (const s of [a, b]) {
    s.closeAllConnections();
    s.close();
  }
});

/** The fetch of a scan of the MCP server on `a`'s origin. */
let f: typeof fetch;
beforeAll(() => {
  f = guardedFetch({ serverOrigin: new URL(aUrl).origin, timeoutMs: 10_000 });
});

it('follows a redirect within the origin', async () => {
  expect(await (await f(`${aUrl}/same`)).json()).toEqual({ ok: true });
});

it('refuses a redirect to another origin, without fetching it', async () => {
  hits.length = 0;
  await expect(f(`${aUrl}/cross`)).rejects.toThrow(RefusedUrlError);
  expect(hits).toEqual(['a /cross']);
});

it('refuses plain http to a host that is not loopback, before sending anything', async () => {
  await expect(f('http://metadata.example.test/.well-known/oauth-protected-resource')).rejects.toThrow(
    /refused http:\/\/metadata\.example\.test/,
  );
});

it('refuses a body past the bound', async () => {
  await expect(f(`${aUrl}/big`)).rejects.toThrow(/passed 262144 bytes/);
});

it('fetches another loopback origin over plain http for a loopback MCP server, in every spelling of 127.0.0.1', async () => {
  const port = new URL(bUrl).port;
  for (const host of ['127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.0.0.1', '0x7f000001', '127.1']) {
    hits.length = 0;
    expect(await (await f(`http://${host}:${port}/metadata`)).json(), host).toEqual({ elsewhere: true });
    expect(hits, host).toEqual(['b /metadata']);
  }
  // The server's own origin is the same origin however it is spelled.
  expect(await (await f(`http://2130706433:${new URL(aUrl).port}/ok`)).json()).toEqual({ ok: true });
});

it('refuses plain http to another origin that is not loopback by its spelling, before sending anything', async () => {
  hits.length = 0;
  const port = new URL(bUrl).port;
  for (const host of ['0.0.0.0', '[::]', 'localhost.', '127.0.0.1.example.test', 'localhost.evil', '127.0.0.1.nip.io'])
    await expect(f(`http://${host}:${port}/metadata`), host).rejects.toThrow(RefusedUrlError);
  expect(hits).toEqual([]);
});

it('refuses plain http to a loopback authorization server for an MCP server that is not loopback, before sending anything', async () => {
  hits.length = 0;
  const remote = guardedFetch({ serverOrigin: 'https://mcp.example.test', timeoutMs: 10_000 });
  await expect(remote(`${bUrl}/metadata`)).rejects.toThrow(
    /refused http:\/\/127\.0\.0\.1:\d+: plain http to another origin only when it and the MCP server \(https:\/\/mcp\.example\.test\) are both loopback/,
  );
  expect(hits).toEqual([]);
});

it('passes on only what OAuth sends: JSON, and when refused an OAuth error object', async () => {
  for (const p of ['/internal', '/internal-json', '/text']) expect(await (await f(`${aUrl}${p}`)).text(), p).toBe('');
  expect(await (await f(`${aUrl}/oauth-error`)).json()).toEqual({
    error: 'invalid_client',
    error_description: 'unknown client',
  });
});

it('recognises loopback hosts as the WHATWG parser writes them', () => {
  for (const u of [
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::1]/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://LOCALHOST/',
    'http://127.255.0.9/',
  ]) {
    expect(isLoopback(new URL(u)), u).toBe(true);
  }
  for (const u of [
    'http://10.0.0.1/',
    'http://[::ffff:10.0.0.1]/',
    'http://localhost.example/',
    'http://128.0.0.1/',
    'http://[::2]/',
  ])
    expect(isLoopback(new URL(u)), u).toBe(false);
});

it('shows and opens only https (or loopback http) authorization endpoints', () => {
  for (const u of [
    'file:///etc/passwd',
    'smb://evil.example/share',
    'vscode://ext/cmd',
    'javascript:alert(1)',
    'http://auth.example.test/authorize',
  ]) {
    expect(authorizationUrlProblem(new URL(u)), u).toMatch(/^refused an authorization endpoint/);
  }
  for (const u of ['https://auth.example.test/authorize', 'http://127.0.0.1:9/authorize'])
    expect(authorizationUrlProblem(new URL(u)), u).toBeUndefined();
});
