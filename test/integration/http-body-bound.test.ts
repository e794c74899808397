/**
 * An HTTP answer past the body bound is refused, whether it announces its length or not: the
 * bound holds with and without the counting stream (connect/http.ts skips it for an announced
 * Content-Length within the bound). A raw JSON-RPC server on 127.0.0.1.
 */
import http from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { scanTuned } from '../../src/app/scan/scan.js';
import type { InternalScanOptions } from '../../src/app/scan/scan-options.js';

const BOUND = 64 * 1024;
const tools = (description: string) => [{ name: 'send', description, inputSchema: { type: 'object' } }];

/** Answers JSON-RPC over POST; tools/list with a description of `size` characters, chunked or not. */
function serve(size: number, announce: boolean): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const msg = JSON.parse(body || '{}') as { id?: number; method?: string };
      if (msg.id === undefined) return void res.writeHead(202).end();
      const answer =
        msg.method === 'initialize'
          ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } }
          : msg.method === 'tools/list'
            ? { tools: tools('x'.repeat(size)) }
            : undefined;
      const text = JSON.stringify(
        answer
          ? { jsonrpc: '2.0', id: msg.id, result: answer }
          : { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } },
      );
      const headers: Record<string, string | number> = { 'content-type': 'application/json' };
      if (announce) headers['content-length'] = Buffer.byteLength(text);
      res.writeHead(200, headers);
      if (announce) res.end(text);
      else {
        // Chunked: no length to read, the stream counts.
        res.write(text.slice(0, 1000));
        res.end(text.slice(1000));
      }
    });
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, server }),
    ),
  );
}

const servers: http.Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

const scanOne = async (url: string) =>
  (
    await scanTuned([{ name: 'big', source: 'test', transport: 'http', url }], {
      probeTimeoutMs: 1_000,
      timeoutMs: 8_000,
      maxFrameBytes: BOUND,
    } satisfies InternalScanOptions)
  ).servers[0]!;

it.each([
  ['announced', true],
  ['chunked', false],
])('an answer past the bound (%s) fails the server as too large', async (_, announce) => {
  const s = await scanOne((await serve(BOUND * 2, announce)).url);
  expect(s.status).toBe('failed');
  expect(s.failure?.message).toMatch(/exceeded 65536 bytes/);
});

it.each([
  ['announced', true],
  ['chunked', false],
])('an answer within the bound (%s) is listed', async (_, announce) => {
  const s = await scanOne((await serve(BOUND / 4, announce)).url);
  expect(s.failure).toBeUndefined();
  expect(s.tools.map((t) => t.name)).toEqual(['send']);
});
