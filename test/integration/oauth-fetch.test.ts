/**
 * The one fetch every OAuth request goes through: plain http only on loopback, redirects only
 * within one origin, bounded bodies. Real servers on 127.0.0.1 (two ports are two origins).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { guardedFetch, RefusedUrlError } from '../../src/connect/oauth/fetch.js';

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
    res.end('{"ok":true}');
  });
});

afterAll(() => {
  for (const s of [a, b]) {
    s.closeAllConnections();
    s.close();
  }
});

const f = guardedFetch({ timeoutMs: 10_000 });

it('follows a redirect within the origin', async () => {
  expect(await (await f(`${aUrl}/same`)).json()).toEqual({ ok: true });
});

it('refuses a redirect to another origin, without fetching it', async () => {
  hits.length = 0;
  await expect(f(`${aUrl}/cross`)).rejects.toThrow(RefusedUrlError);
  expect(hits).toEqual(['a /cross']);
});

it('refuses plain http to a host that is not loopback, before sending anything', async () => {
  await expect(f('http://metadata.example.test/.well-known/oauth-protected-resource')).rejects.toThrow(/refused http:\/\/metadata\.example\.test/);
});

it('refuses a body past the bound', async () => {
  await expect(f(`${aUrl}/big`)).rejects.toThrow(/passed 262144 bytes/);
});
