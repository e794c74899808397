/**
 * .mcpb bundles for real, served by a loopback HTTP server: one honest (a Node stdio server with
 * user_config and a linux override), one whose bytes are not its sha256, one with a `../` entry,
 * one too large to download, one that declares more unpacked bytes than allowed. Scanned with
 * and without --sandbox; the honest one is downloaded once.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { idemscan } from '../helpers/cli.js';
import { sha256, zip } from '../helpers/zip-writer.js';

const SERVER = `
const readline = require('node:readline');
const rl = readline.createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bundle-echo', version: '1.0.0' } } });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'bundle_echo', description: 'key=' + process.env.API_KEY + ' mode=' + process.env.MODE_X + ' platform=' + process.env.PLATFORM, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
});
`;
const MANIFEST = {
  manifest_version: '0.2',
  name: 'bundle-echo',
  version: '1.0.0',
  server: {
    type: 'node',
    entry_point: 'server/index.js',
    mcp_config: {
      command: 'node',
      args: ['${__dirname}/server/index.js'],
      env: { API_KEY: '${user_config.api_key}', MODE_X: '${user_config.mode}' },
      platform_overrides: {
        linux: { env: { API_KEY: '${user_config.api_key}', MODE_X: '${user_config.mode}', PLATFORM: 'linux' } },
      },
    },
  },
  user_config: {
    api_key: { type: 'string', title: 'API key', sensitive: true, required: true },
    mode: { type: 'string', title: 'Mode', default: 'fast' },
  },
};
const honest = zip([
  { name: 'manifest.json', data: JSON.stringify(MANIFEST) },
  { name: 'server/', data: '', mode: 0o040755 },
  { name: 'server/index.js', data: SERVER },
]);
const slip = zip([
  { name: 'manifest.json', data: JSON.stringify(MANIFEST) },
  { name: '../evil.txt', data: 'written outside' },
  { name: 'server/index.js', data: SERVER },
]);
const bomb = zip([
  { name: 'manifest.json', data: JSON.stringify(MANIFEST) },
  { name: 'server/index.js', data: SERVER, declaredSize: 600 * 1024 * 1024 },
]);

const OTHER = sha256(Buffer.from('some other bundle'));

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-mcpb-'));
const cache = path.join(dir, 'cache');
const file = path.join(dir, 'targets.json');
const hits = new Map<string, number>();
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    const body = { '/honest.mcpb': honest, '/mismatch.mcpb': honest, '/slip.mcpb': slip, '/bomb.mcpb': bomb }[req.url!];
    if (req.url === '/big.mcpb') {
      res.writeHead(200, { 'content-length': String(200 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
      return; // never finishes: the announced size alone is refused
    }
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(
    file,
    JSON.stringify({
      servers: [
        { name: 'honest', mcpb: `${base}/honest.mcpb`, sha256: sha256(honest) },
        { name: 'mismatch', mcpb: `${base}/mismatch.mcpb`, sha256: OTHER },
        { name: 'slip', mcpb: `${base}/slip.mcpb`, sha256: sha256(slip) },
        { name: 'big', mcpb: `${base}/big.mcpb`, sha256: 'a'.repeat(64) },
        { name: 'bomb', mcpb: `${base}/bomb.mcpb`, sha256: sha256(bomb) },
        { name: 'unhashed', mcpb: `${base}/honest.mcpb` },
      ],
    }),
  );
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const run = async (extra: string[]) => {
  const started = performance.now();
  const scan = await idemscan(['scan', file, '--cache-dir', cache, ...extra, '--json', '-', '--out', dir]);
  const report = Report.parse(JSON.parse(scan.stdout));
  return {
    report,
    stderr: scan.stderr,
    ms: Math.round(performance.now() - started),
    s: (name: string) => report.servers.find((x) => x.name === name)!,
  };
};

it(
  'installs the honest bundle and refuses the others before unpacking, each saying why',
  { timeout: 60_000 },
  async () => {
    const { s, stderr, ms, report } = await run([]);
    console.log(
      `mcpb first scan (downloads and unpacks): ${ms} ms; installs ${JSON.stringify(report.manifest?.installs)}`,
    );
    expect(s('honest').status, JSON.stringify(s('honest').failure)).toBe('ok');
    expect(s('honest').tools[0]!.description).toBe('key=idemscan-fake-api_key mode=fast platform=linux');
    expect(s('honest').target).toMatchObject({
      mcpb: { sha256: sha256(honest) },
      fakeEnv: ['user_config.api_key'],
      sandbox: 'none',
    });
    expect(s('honest').target.resolved).toContain(path.join(cache, 'mcpb', sha256(honest), 'server', 'index.js'));
    const failure = (name: string) => s(name).failure!;
    expect(failure('mismatch')).toMatchObject({
      kind: 'spawn',
      message: `mcpb:sha256:${OTHER} was not installed: mismatch: sha256 mismatch: the entry pins ${OTHER}, the download is ${sha256(honest)}; nothing was unpacked`,
    });
    expect(failure('slip').message).toBe(
      `mcpb:sha256:${sha256(slip)} was not installed: slip: refused to unpack: entry "../evil.txt": a ".." segment (it would be written outside the bundle)`,
    );
    expect(failure('big').message).toMatch(
      /was not installed: big: the bundle is 209715200 bytes, more than the 134217728 allowed$/,
    );
    expect(failure('bomb').message).toMatch(
      /was not installed: bomb: refused to unpack: unpacks to more than 536870912 bytes$/,
    );
    expect(stderr).toMatch(
      /skipped unhashed .*a "mcpb" bundle needs its "sha256" \(it is checked before anything is unpacked\)/,
    );
    // Only the honest bundle is in the cache; nothing was written beside it.
    expect(readdirSync(path.join(cache, 'mcpb'))).toEqual([sha256(honest)]);
    expect(existsSync(path.join(cache, 'evil.txt')) || existsSync(path.join(cache, 'mcpb', 'evil.txt'))).toBe(false);
  },
);

it.skipIf(!sandboxPrefix())(
  'runs the cached bundle under --sandbox without downloading it again',
  { timeout: 60_000 },
  async () => {
    const before = hits.get('/honest.mcpb');
    const { s, ms } = await run(['--sandbox', '--no-install']);
    console.log(`mcpb cached scan under --sandbox: ${ms} ms, server ${s('honest').durationMs} ms`);
    expect(s('honest').status, JSON.stringify(s('honest').failure)).toBe('ok');
    expect(s('honest').target.sandbox).toBe('bubblewrap');
    const again = await run([]);
    expect(again.s('honest').status).toBe('ok');
    expect(hits.get('/honest.mcpb')).toBe(before);
    expect(before).toBe(1);
  },
);
