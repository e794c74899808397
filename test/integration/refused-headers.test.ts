/**
 * A target header undici refuses, against a real server on 127.0.0.1: `scan()` refuses the target
 * before anything is sent, naming the field and not the value. (Were one to reach the wire anyway,
 * test/unit/http-failure.test.ts holds what the report would say.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';

let server: http.Server;
let url: string;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a header the HTTP client refuses', () => {
  it.each([
    ['http', { 'Transfer-Encoding': 'chunked' }, '"transfer-encoding"'],
    ['sse', { 'Transfer-Encoding': 'chunked' }, '"transfer-encoding"'],
    ['http', { Expect: '100-continue' }, '"expect"'],
    ['http', { 'X-Key': 'secret-value\u0001' }, '"x-key"'],
    ['sse', { 'Bad Name': 'secret-value' }, '"Bad Name"'],
  ] as const)('%s %j: refused before a request is sent, the field named', async (transport, headers, named) => {
    hits = 0;
    const scanning = scan([{ name: 'h', source: 'test', transport, url, headers }], {
      timeoutMs: 8_000,
      probeTimeoutMs: 1_000,
    });
    const error = await scanning.then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(hits).toBe(0);
    expect(error?.message).toMatch(/targets\[0\]\.headers\./);
    expect(error?.message.toLowerCase()).toContain(named.toLowerCase().replaceAll('"', ''));
    expect(error?.message).not.toContain('secret-value');
  });
});
