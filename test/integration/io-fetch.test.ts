/**
 * The one bounded fetch (src/io/fetch.ts), against real servers on 127.0.0.1: a body read to its
 * bound and the rest never downloaded, a Content-Length past it refused unread, an error page cut,
 * a deadline and an abort signal that end a body still arriving, redirects only as the policy says.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBody, guardBody, readHead, request, type RedirectPolicy } from '../../src/io/fetch.js';

let server: Server;
let base = '';
/** Each endless answer's end: when its client went away. */
const gone = new Map<string, Promise<void>>();

/** Writes 64 KiB at a time until the client is gone (it never ends on its own). */
function endless(name: string, res: ServerResponse): void {
  gone.set(name, new Promise((resolve) => res.once('close', () => resolve())));
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const more = () => {
    while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', more);
  };
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  more();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/small') return res.end('{"ok":true}');
    if (url.startsWith('/endless')) return endless(url, res);
    if (url === '/announced') return res.writeHead(200, { 'content-length': String(1 << 30) }).end();
    if (url === '/stalls') return res.writeHead(200).write('{"a":'); // and nothing more
    if (url === '/error-page') return res.writeHead(500, { 'content-type': 'text/html' }).end('e'.repeat(40_000));
    if (url === '/404') return res.writeHead(404).end('no');
    const hop = /^\/hop\/(\d+)$/.exec(url);
    if (hop)
      return res.writeHead(302, { location: Number(hop[1]) > 0 ? `/hop/${Number(hop[1]) - 1}` : '/small' }).end();
    if (url === '/away') return res.writeHead(302, { location: 'https://elsewhere.example/x' }).end();
    res.writeHead(400).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('fetchBody', () => {
  it('reads a body whole under its bound', async () => {
    const got = await fetchBody(`${base}/small`, { maxBytes: 100 });
    expect(got.ok && got.bytes.toString()).toBe('{"ok":true}');
  });

  it('refuses an endless body once past the bound, and stops downloading it', async () => {
    expect(await fetchBody(`${base}/endless/a`, { maxBytes: 1024 * 1024 })).toEqual({ ok: false, why: 'too-large' });
    // The connection is closed, not left open with the body pending: this never resolves otherwise.
    await gone.get('/endless/a');
  });

  it('refuses an announced Content-Length past the bound before reading', async () => {
    expect(await fetchBody(`${base}/announced`, { maxBytes: 1000 })).toEqual({
      ok: false,
      why: 'too-large',
      declared: 1 << 30,
    });
  });

  it('ends a body that stalls at the deadline, and a request when the signal comes', async () => {
    expect(await fetchBody(`${base}/stalls`, { maxBytes: 1000, timeoutMs: 300 })).toEqual({
      ok: false,
      why: 'timeout',
    });
    const stop = new AbortController();
    const reading = fetchBody(`${base}/stalls`, { maxBytes: 1000, signal: stop.signal });
    stop.abort();
    expect(await reading).toEqual({ ok: false, why: 'interrupted' });
  });

  it('a non-2xx answer is its status, its body unread; a refused redirect is the error of the policy', async () => {
    expect(await fetchBody(`${base}/404`, { maxBytes: 10 })).toEqual({ ok: false, why: 'status', status: 404 });
    expect(await fetchBody(`${base}/hop/0`, { maxBytes: 10, init: { redirect: 'manual' } })).toEqual({
      ok: false,
      why: 'status',
      status: 302,
    });
    const got = await fetchBody(`${base}/away`, { maxBytes: 100, redirects: sameHost(3) });
    expect(got).toMatchObject({ ok: false, why: 'failed', error: { message: 'refused elsewhere.example' } });
  });
});

/** Follows redirects to this server only, at most `max` of them. */
function sameHost(max: number): RedirectPolicy {
  return {
    follow(location, from, hop) {
      const next = new URL(location, from);
      if (next.host !== from.host) throw new Error(`refused ${next.host}`);
      if (hop > max) throw new Error(`more than ${max} redirects`);
      return next;
    },
  };
}

describe('request', () => {
  it('follows redirects only as the policy says, each hop counted', async () => {
    const res = await request(`${base}/hop/2`, { redirects: sameHost(3) });
    expect(await res.text()).toBe('{"ok":true}');
    await expect(request(`${base}/hop/3`, { redirects: sameHost(3) })).rejects.toThrow('more than 3 redirects');
  });
});

describe('readHead and guardBody', () => {
  it('cut an error page at its bound, and fail a streamed body past it', async () => {
    const page = await readHead(await request(`${base}/error-page`), 16 * 1024);
    expect({ length: page.bytes.length, cut: page.cut }).toEqual({ length: 16 * 1024, cut: true });
    const small = await readHead(await request(`${base}/small`), 16 * 1024);
    expect({ text: small.bytes.toString(), cut: small.cut }).toEqual({ text: '{"ok":true}', cut: false });

    let seen = 0;
    const guarded = guardBody(
      await request(`${base}/endless/b`),
      256 * 1024,
      () => new Error('past the bound'),
      (n) => (seen = n),
    );
    await expect(guarded.arrayBuffer()).rejects.toThrow('past the bound');
    expect(seen).toBeGreaterThan(256 * 1024);
    await gone.get('/endless/b');
  });
});
