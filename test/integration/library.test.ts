/**
 * The library as docs/LIBRARY.md shows it: its examples run against fixture servers, and malformed
 * input is a typed error (ScanInputError, TargetFileError), never a server failing with "Invalid URL".
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { loadTargetFile, scan, ScanInputError, TargetFileError, type Target } from '../../src/index.js';
import { FIXTURES } from '../fixtures/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-library-'));
/** An example, run as a user would with tsx ('idemscan' resolves through tsconfig.json's paths). */
const example = (name: string, args: string[]) =>
  execa(process.execPath, ['--import', 'tsx', path.join(root, 'docs/examples/library', name), ...args], {
    cwd: root,
    reject: false,
    timeout: 60_000,
  });

describe('the examples of docs/LIBRARY.md', () => {
  it('scan-file.ts: lists the tools not safe to retry, a failed server, a skipped entry', async () => {
    const file = path.join(dir, 'targets.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: [
          { name: 'payments', command: process.execPath, args: [FIXTURES.legacyStdio] },
          { name: 'broken', command: process.execPath, args: [FIXTURES.raw], env: { MODE: 'crash' } },
          { name: 'half' },
        ],
      }),
    );
    const r = await example('scan-file.ts', [file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'payments: 8 tools, not safe to retry: set_status (idempotent), send_email (unprotected), rotate_api_key (unprotected), toggle_feature (unprotected), submit_order (unprotected)',
      'broken: failed (exited): the server exited with code 1',
      'unprotected tools in all: 4',
    ]);
    expect(r.stderr).toContain('skipped half: servers[2]');
    const missing = await example('scan-file.ts', [path.join(dir, 'none.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('unreadable: ');
  });

  it('one-server.ts: every tool with its verdict and key', async () => {
    const r = await example('one-server.ts', [process.execPath, FIXTURES.legacyStdio]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('create_payment\tkeyed\tkey $.idempotency_key (strong)');
    expect(r.stderr).toContain('mine: ok in ');
  });

  it('render.ts: an HTML page beside the report, and the diff with an earlier one', async () => {
    const file = path.join(dir, 'targets-1.json');
    writeFileSync(
      file,
      JSON.stringify({ servers: [{ name: 'payments', command: process.execPath, args: [FIXTURES.legacyStdio] }] }),
    );
    const report = await scan((await loadTargetFile(file)).targets, { timeoutMs: 20_000 });
    const [a, b] = [path.join(dir, 'a', 'report.json'), path.join(dir, 'b.json')];
    mkdirSync(path.dirname(a));
    writeFileSync(a, JSON.stringify(report));
    writeFileSync(b, JSON.stringify({ ...report, servers: [] }));
    const r = await example('render.ts', [a, b]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('server added');
    expect(readFileSync(path.join(dir, 'a', 'report.html'), 'utf8')).toContain('<html');
  });
});

describe('malformed library input is a typed error', () => {
  const base = { name: 'x', source: 'test', command: process.execPath, args: [FIXTURES.legacyStdio] };
  const cases: [string, unknown, string, ScanInputError['kind']][] = [
    ['no transport', [base], 'targets[0].transport', 'target'],
    ['a url target without url', [{ ...base, command: undefined, transport: 'http' }], 'targets[0].url', 'target'],
    [
      'a stdio target with both command and npm',
      [{ ...base, transport: 'stdio', npm: 'a@1.0.0' }],
      'targets[0].command',
      'target',
    ],
    ['args not strings', [{ ...base, transport: 'stdio', args: [1] }], 'targets[0].args', 'target'],
    [
      'two targets of one name',
      [
        { ...base, transport: 'stdio' },
        { ...base, transport: 'stdio' },
      ],
      'targets[1].name',
      'target',
    ],
    ['not an array', { servers: [] }, 'targets', 'targets'],
  ];
  it.each(cases)('%s: a ScanInputError', async (_, targets, where, kind) => {
    const err = await scan(targets as Target[]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScanInputError);
    expect(err).toMatchObject({ kind, path: where });
  });

  it('a bad option: ScanInputError of kind option', async () => {
    const err = await scan([{ ...base, transport: 'stdio' }], { timeoutMs: -1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'option', path: 'options.timeoutMs' });
  });

  it('a target file that is not JSON: TargetFileError of kind syntax', async () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, '{ "servers": [');
    const err = await loadTargetFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetFileError);
    expect(err).toMatchObject({ kind: 'syntax', file });
  });
});
