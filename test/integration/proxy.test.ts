/**
 * HTTP targets go through HTTP_PROXY / HTTPS_PROXY unless NO_PROXY names them: a tiny CONNECT (and
 * absolute-URI) proxy on 127.0.0.1 counts what passes through it.
 */
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

let proxy: Server;
let proxyUrl = '';
const seen: string[] = [];
let target: HttpFixture;

beforeAll(async () => {
  proxy = createServer((req, res) => {
    // A plain-http request through the proxy: an absolute URI.
    seen.push(`${req.method} ${req.url}`);
    const upstream = request(req.url!, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const up = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  target = await startHttpFixture({ MODE: 'modern' });
});

afterAll(async () => {
  await target?.close();
  proxy?.closeAllConnections();
  proxy?.close();
});

// undici reads the lower-case names first: they are removed, not emptied.
const none = {
  HTTP_PROXY: '',
  HTTPS_PROXY: '',
  NO_PROXY: '',
  http_proxy: undefined,
  https_proxy: undefined,
  no_proxy: undefined,
};

it('sends HTTP targets through HTTP_PROXY, and around it for hosts in NO_PROXY', async () => {
  const through = await idemscan(['audit', target.url, '--probe-timeout', '500', '--timeout', '20000'], {
    env: { ...none, HTTP_PROXY: proxyUrl },
  });
  expect(through.exitCode, through.stdout + through.stderr).toBe(0);
  const port = new URL(target.url).port;
  expect(seen.some((s) => s.includes(`127.0.0.1:${port}`))).toBe(true);

  const count = seen.length;
  const around = await idemscan(['audit', target.url, '--probe-timeout', '500', '--timeout', '20000'], {
    env: { ...none, HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' },
  });
  expect(around.exitCode, around.stdout + around.stderr).toBe(0);
  expect(seen.length).toBe(count);
}, 150_000);
