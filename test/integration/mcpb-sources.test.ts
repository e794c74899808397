/**
 * Two entries that pin one `fileSha256` from two sources (issue 26, item 3): `bundle` from an
 * honest URL, `bundle-tampered` from one that serves other bytes. One install keyed by the hash is
 * tried from each source until one verifies, in either order of the entries; a source that fails
 * never removes or blocks the verified bundle, and each failure names its entry. Real loopback
 * HTTP, the built CLI (`install` and `scan`, which installs what is missing) and the library.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/shell/exit.js';
import { scan, type Target } from '../../src/index.js';
import { Report } from '../../src/model/schema.js';
import { idemscan } from '../helpers/cli.js';
import { sha256, zip } from '../helpers/zip-writer.js';

const SERVER = `
const readline = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'b', version: '1' } } });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: process.env.TOOL, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
});
`;
const bundle = (tool: string) =>
  zip([
    {
      name: 'manifest.json',
      data: JSON.stringify({
        manifest_version: '0.2',
        name: 'b',
        version: '1.0.0',
        server: {
          type: 'node',
          entry_point: 'index.js',
          mcp_config: { command: 'node', args: ['${__dirname}/index.js'], env: { TOOL: tool } },
        },
      }),
    },
    { name: 'index.js', data: SERVER },
  ]);
const honest = bundle('honest_tool');
const tampered = bundle('tampered_tool');
const HASH = sha256(honest);
const SPEC = `mcpb:sha256:${HASH}`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-mcpb-sources-'));
const hits = new Map<string, number>();
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    // The query only makes another source of the same bytes.
    const body = { '/honest.mcpb': honest, '/tampered.mcpb': tampered }[req.url!.split('?')[0]!];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** A registry list response whose servers each pin HASH from their own path on the fixture server. */
function list(name: string, entries: [server: string, urlPath: string][]): string {
  const file = path.join(dir, `${name}.json`);
  const servers = entries.map(([n, p]) => ({
    server: { name: n, packages: [{ registryType: 'mcpb', identifier: `${base}${p}`, fileSha256: HASH }] },
  }));
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

const freshCache = () => mkdtempSync(path.join(dir, 'cache-'));
const cached = (cache: string) => readdirSync(path.join(cache, 'mcpb'));
const MISMATCH = `sha256 mismatch: the entry pins ${HASH}, the download is ${sha256(tampered)}; nothing was unpacked`;
/** What is said when the tampered source is tried first: a warning, the entry named, the bundle installed. */
const WARNING = `${SPEC}: bundle-tampered: ${MISMATCH}; installed from the source of bundle`;

async function scanned(file: string, cache: string, extra: string[] = []) {
  const run = await idemscan(['scan', file, '--cache-dir', cache, ...extra, '--json', '-', '--out', dir]);
  const report = Report.parse(JSON.parse(run.stdout));
  const s = (name: string) => report.servers.find((x) => x.name === name)!;
  return { run, report, s };
}

const ORDERS: [string, [string, string][]][] = [
  [
    'honest first',
    [
      ['bundle', '/honest.mcpb'],
      ['bundle-tampered', '/tampered.mcpb'],
    ],
  ],
  [
    'tampered first',
    [
      ['bundle-tampered', '/tampered.mcpb'],
      ['bundle', '/honest.mcpb'],
    ],
  ],
];

describe.each(ORDERS)('bundle and bundle-tampered pin one sha256, %s', (order, entries) => {
  it('idemscan install installs the honest bundle and names the tampered entry', { timeout: 60_000 }, async () => {
    const cache = freshCache();
    const run = await idemscan(['install', list(`install-${order}`, entries), '--cache-dir', cache]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`ok {5}${SPEC} \\(`));
    expect(run.stdout).toContain('1/1 packages in');
    if (order === 'tampered first') expect(run.stdout + run.stderr).toContain(`idemscan: ${WARNING}`);
    expect(cached(cache)).toEqual([HASH]);
  });

  it('scan installs it and runs the honest bytes for both entries', { timeout: 60_000 }, async () => {
    const { s, run } = await scanned(list(`scan-${order}`, entries), freshCache());
    for (const name of ['bundle', 'bundle-tampered']) {
      expect(s(name).status, JSON.stringify(s(name).failure)).toBe('ok');
      expect(s(name).tools.map((t) => t.name)).toEqual(['honest_tool']);
    }
    if (order === 'tampered first') expect(run.stderr).toContain(`idemscan: ${WARNING}\n`);
  });
});

it('an installed bundle is never removed or blocked by a tampered source', { timeout: 60_000 }, async () => {
  const cache = freshCache();
  expect(
    (await idemscan(['install', list('honest-only', [['bundle', '/honest.mcpb']]), '--cache-dir', cache])).exitCode,
  ).toBe(0);
  const before = hits.get('/tampered.mcpb') ?? 0;
  const tamperedOnly = list('tampered-only', [['bundle-tampered', '/tampered.mcpb']]);
  const again = await idemscan(['install', tamperedOnly, '--cache-dir', cache]);
  expect(again.exitCode, again.stderr).toBe(0);
  expect(again.stdout).toContain(`ok     ${SPEC} (cached)`);
  const both = await scanned(list('both', ORDERS[1]![1]), cache);
  expect(both.s('bundle').status).toBe('ok');
  expect(both.s('bundle-tampered').tools.map((t) => t.name)).toEqual(['honest_tool']);
  // Keyed by content: the cached bytes are the pinned ones, so no source is asked again.
  expect(hits.get('/tampered.mcpb') ?? 0).toBe(before);
  expect(existsSync(path.join(cache, 'mcpb', HASH, 'manifest.json'))).toBe(true);
});

it('when no source verifies, the failure names each entry and its reason', { timeout: 60_000 }, async () => {
  const file = list('none', [
    ['bundle-tampered', '/tampered.mcpb'],
    ['bundle-gone', '/gone.mcpb'],
  ]);
  const cache = freshCache();
  const want = `bundle-tampered: ${MISMATCH}; bundle-gone: download failed: HTTP 404`;
  const install = await idemscan(['install', file, '--cache-dir', cache]);
  expect(install.exitCode).toBe(EXIT.allFailed);
  expect(install.stdout + install.stderr).toContain(want);
  const { s } = await scanned(file, cache);
  for (const name of ['bundle-tampered', 'bundle-gone'])
    expect(s(name).failure).toMatchObject({ kind: 'spawn', message: `${SPEC} was not installed: ${want}` });
  expect(existsSync(path.join(cache, 'mcpb'))).toBe(false);
});

it(
  'scan(): an entry whose URL is refused does not block another that pins the same hash',
  { timeout: 60_000 },
  async () => {
    const cacheDir = freshCache();
    const target = (name: string, url: string): Target => ({
      name,
      transport: 'stdio',
      source: 'test',
      mcpb: { url, sha256: HASH },
    });
    const targets = [target('bundle-plain', 'http://bundles.example/b.mcpb'), target('bundle', `${base}/honest.mcpb`)];
    const report = await scan(targets, { install: true, cacheDir });
    for (const s of report.servers) expect(s.status, JSON.stringify(s.failure)).toBe('ok');
    expect(cached(cacheDir)).toEqual([HASH]);
  },
);

it(
  'tries every distinct source before the honest one, and says the first five failures and a count',
  { timeout: 60_000 },
  async () => {
    const bad = Array.from({ length: 7 }, (_, i) => [`tampered-${i}`, `/tampered.mcpb?copy=${i}`] as [string, string]);
    const { s, run } = await scanned(list('seven', [...bad, ['bundle', '/honest.mcpb']]), freshCache());
    expect(s('bundle').status, JSON.stringify(s('bundle').failure)).toBe('ok');
    expect(s('tampered-6').tools.map((t) => t.name)).toEqual(['honest_tool']);
    const said = run.stderr.split('\n').filter((l) => l.startsWith(`idemscan: ${SPEC}: `));
    expect(said).toEqual([
      ...bad
        .slice(0, 5)
        .map(([name]) => `idemscan: ${SPEC}: ${name}: ${MISMATCH}; installed from the source of bundle`),
      `idemscan: ${SPEC}: and 2 more sources that failed; installed from the source of bundle`,
    ]);
  },
);
