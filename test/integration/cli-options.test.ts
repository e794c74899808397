/**
 * The built CLI's options and errors (issue 11): options that never swallow a target, in every
 * order; one list parser; numbers that name themselves; usage errors for non-http URLs; error texts
 * in words; an internal error that says so.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES, startHttpFixture, type HttpFixture } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-options-'));
const fast = ['--probe-timeout', '500', '--timeout', '10000'];
const list = path.join(dir, 'targets.json');
writeFileSync(
  list,
  JSON.stringify({
    servers: [{ name: 'listed', command: process.execPath, args: [FIXTURES.raw], env: { MODE: 'idempotency-cap' } }],
  }),
);

function report(stdout: string): Report {
  return Report.parse(JSON.parse(stdout));
}

describe('scan: --trust and --profile never take the target file', () => {
  // The file must be scanned (not the bundled list), whatever the order.
  const orders: [string, string[]][] = [
    ['option before the file', ['--trust', 'everything', list]],
    ['option after the file', [list, '--trust', 'everything']],
    ['repeated, around the file', ['--trust', 'everything', list, '--trust', 'other']],
    ['comma list', ['--trust', 'everything,other', list]],
    ['file after --', ['--trust', 'everything', '--', list]],
    ['--profile before the file', ['--profile', 'openai-apps', '--trust', 'everything', list]],
  ];
  it.concurrent.each(orders)('%s', async (_, args) => {
    // The common options first: after `--` every word is a target.
    const r = await idemscan(['scan', '--json', '-', '-q', '--out', path.join(dir, 'o-scan'), ...fast, ...args]);
    expect(r.exitCode, r.stderr).toBe(0);
    const rep = report(r.stdout);
    expect(rep.servers.map((s) => s.name)).toEqual(['listed']);
    expect(rep.options.trust).toContain('everything');
    if (args.includes('other') || args.includes('everything,other'))
      expect(rep.options.trust).toEqual(['everything', 'other']);
  });
});

describe('audit: --env, --header and --trust never take the command or the URL', () => {
  const server = ['--', process.execPath, FIXTURES.raw];
  const orders: [string, string[]][] = [
    ['--env then -- command', ['--env', 'MODE=idempotency-cap', ...server]],
    ['--env twice, --trust between', ['--env', 'MODE=idempotency-cap', '--trust', 'x', '--env', 'OTHER=1', ...server]],
    ['--trust right before --', ['--env', 'MODE=idempotency-cap', '--trust', 'raw.mjs', ...server]],
  ];
  it.concurrent.each(orders)('%s', async (_, args) => {
    const r = await idemscan(['audit', '--json', '-', '-q', '--out', path.join(dir, 'o-audit'), ...fast, ...args]);
    expect(r.exitCode, r.stderr).toBe(0);
    const rep = report(r.stdout);
    expect(rep.servers[0]!.status).toBe('ok');
    expect(rep.servers[0]!.target.transport).toBe('stdio');
  });

  let http: HttpFixture;
  beforeAll(async () => {
    http = await startHttpFixture({ MODE: 'modern', BEARER: 'sesame' });
  });
  afterAll(() => http.close());

  const urlOrders = (url: () => string): [string, () => string[]][] => [
    ['--header before the URL', () => ['--header', 'Authorization: Bearer sesame', url()]],
    ['--header after the URL', () => [url(), '--header', 'Authorization: Bearer sesame']],
    [
      '--header twice around the URL',
      () => ['--header', 'Authorization: Bearer sesame', url(), '--header', 'X-Other: 1'],
    ],
    ['--header then --trust then the URL', () => ['--header', 'Authorization: Bearer sesame', '--trust', 'a', url()]],
    ['URL after --', () => ['--header', 'Authorization: Bearer sesame', '--', url()]],
  ];
  it.concurrent.each(urlOrders(() => http.url))('%s', async (_, args) => {
    const r = await idemscan(['audit', '--json', '-', '-q', '--out', path.join(dir, 'o-http'), ...args()]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(report(r.stdout).servers[0]!.status).toBe('ok');
  });
});

describe('one list parser, checked before any work', () => {
  it('formats are case-insensitive', async () => {
    const r = await idemscan(['scan', list, '--format', 'JSON,Md', '--out', path.join(dir, 'o-case'), '-q', ...fast]);
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it.concurrent.each([
    [['scan', list, '--format', 'json,htm'], /--format: unknown "htm"; did you mean "html"\?/],
    [['audit', '--format', 'sarf', '--', 'node', 'x.mjs'], /--format: unknown "sarf"; did you mean "sarif"\?/],
    [['report', 'r.json', '--format', 'tabel'], /--format: unknown "tabel"; did you mean "table"\?/],
    [['merge', 'a.json', '--format', 'table,md'], /--format table: prints only/],
    [['scan', list, '--format', 'table'], /--format table: prints only/],
    [['scan', list, '--fail-on', 'unprotectd'], /--fail-on: unknown "unprotectd"; did you mean "unprotected"\?/],
    [['diff', 'a.json', 'b.json', '--format', 'txt'], /--format: unknown "txt"; did you mean "text"\?/],
    [['scan', list, '--timeout', 'abc'], /--timeout must be a positive integer up to 2147483647, got "abc"/],
    [['scan', list, '--concurrency', '0'], /--concurrency must be a positive integer/],
    [['install', list, '--concurrency', '1.5'], /--concurrency must be a positive integer/],
    [['audit', 'ftp://x'], /"ftp:\/\/x": not an http\(s\) URL \(ftp:\)/],
    [['audit', 'file:///etc/passwd'], /not an http\(s\) URL \(file:\)/],
    [['audit', 'ws://127.0.0.1:1/'], /not an http\(s\) URL \(ws:\)/],
    [['scan', 'https://example.com/mcp'], /"https:\/\/example.com\/mcp" is a URL; scan reads target files/],
    [
      ['audit', 'localhost:3000/mcp'],
      /"localhost:3000\/mcp" is a URL without its scheme: give http:\/\/localhost:3000\/mcp$/m,
    ],
    [['audit', '--', '127.0.0.1:8080'], /give http:\/\/127\.0\.0\.1:8080$/m],
    [['probe', '--plan', 'p.json', 'mcp.example.com/mcp'], /give https:\/\/mcp\.example\.com\/mcp$/m],
    [
      ['scan', 'localhost:3000/mcp'],
      /is a URL without its scheme, and no file; .*audit http:\/\/localhost:3000\/mcp\)$/m,
    ],
  ])('%j is a usage error before anything runs', async (args, message) => {
    const r = await idemscan(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|spawn/);
  });

  it('diff --format MD is accepted (and then wants its two reports)', async () => {
    const r = await idemscan(['diff', '--format', 'MD']);
    expect(r.stderr).toMatch(/diff needs two reports/);
  });
});

describe('error texts', () => {
  it('an HTTP failure names the system error, host and port', async () => {
    // A port that was just listening, now closed: ECONNREFUSED on 127.0.0.1.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await idemscan([
      'audit',
      `http://127.0.0.1:${port}/mcp`,
      '--json',
      '-',
      '-q',
      '--out',
      path.join(dir, 'o-refused'),
    ]);
    expect(r.exitCode).toBe(3);
    expect(report(r.stdout).servers[0]!.failure?.message).toBe(
      `ECONNREFUSED 127.0.0.1:${port}: cannot reach the server (connection refused)`,
    );
  });

  it('an entry with an unknown field names that field first', async () => {
    const file = path.join(dir, 'typo.json');
    writeFileSync(file, JSON.stringify({ servers: [{ name: 'typo', url: 'nope', comand: 'node' }] }));
    const r = await idemscan(['scan', file, '-q']);
    expect(r.stderr).toMatch(/skipped typo \(.*typo\.json\): servers\[0\]: unknown field "comand"/);
  });

  it.concurrent.each([
    ['a missing file', () => path.join(dir, 'nope.json'), /nope\.json: cannot read: no such file \(ENOENT\)/],
    ['a directory', () => dir, /cannot read: is a directory \(EISDIR\)/],
    [
      'JSON missing its }',
      () => {
        const f = path.join(dir, 'brace.json');
        writeFileSync(f, '{ "servers": [] ');
        return f;
      },
      /brace\.json: not valid JSON at line 1, column \d+: expected `\}`/,
    ],
  ])('%s is said in words', async (_, file, message) => {
    const r = await idemscan(['scan', file()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a missing pinned package gives the exact install command', async () => {
    const sub = path.join(dir, 'my targets');
    mkdirSync(sub, { recursive: true });
    const file = path.join(sub, 'pinned.json');
    writeFileSync(
      file,
      JSON.stringify({ servers: [{ name: 'pinned', npm: '@modelcontextprotocol/server-memory@2026.8.31' }] }),
    );
    const cache = path.join(dir, 'empty-cache');
    const r = await idemscan(['scan', file, '--no-install', '--cache-dir', cache, '--json', '-', '-q']);
    expect(r.exitCode).toBe(3);
    expect(report(r.stdout).servers[0]!.failure?.message).toContain(
      `run \`idemscan install '${file}' --cache-dir ${cache}\` first`,
    );
  });

  it('an internal error exits 2 and says it is one, with the stack', async () => {
    // A real crash in a command, not a bad flag: JSON.stringify throws inside `schema`.
    const preload = path.join(dir, 'crash.mjs');
    writeFileSync(preload, "JSON.stringify = () => { throw new TypeError('boom from the test'); };\n");
    const r = await execa(process.execPath, ['--import', preload, CLI, 'schema'], { reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^idemscan: internal error/);
    expect(r.stderr).toMatch(/\nError: /); // the error itself (zod's, around the TypeError)
    expect(r.stderr).toContain('\n    at '); // the stack
    expect(r.stderr).not.toMatch(/Usage:/);
  });
});
