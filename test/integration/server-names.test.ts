/**
 * Every option that takes a server name (`--trust`) accepts each name the output shows for it:
 * audit's header and `servers[].name` (what the server calls itself), the progress line (the
 * command's file name), a list's key; in any case. A name that matches nothing is told.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-names-'));
const fast = ['--probe-timeout', '500', '--timeout', '20000'];
// legacy-stdio.mjs calls itself legacy-payments; its set_status is idempotent by hint alone, so
// `idempotent-hint-untrusted` fires unless the server is trusted.
const server = ['--', process.execPath, FIXTURES.legacyStdio];

async function audit(args: string[]) {
  const r = await idemscan([
    'audit',
    '--json',
    '-',
    '--out',
    path.join(dir, 'o'),
    ...fast,
    '--fail-on',
    'idempotent-hint-untrusted',
    ...args,
    ...server,
  ]);
  return { ...r, report: Report.parse(JSON.parse(r.stdout)) };
}

describe('audit --trust NAME', () => {
  it.concurrent.each([
    ['the name in the header and servers[].name', 'legacy-payments'],
    ['that name in another case, with spaces', ' Legacy-Payments '],
    ['the command file name (the progress line)', path.basename(process.execPath)],
  ])('%s: trusted, no finding, exit 0', async (_, name) => {
    const r = await audit(['--trust', name]);
    expect(r.report.servers[0]!.name).toBe('legacy-payments');
    expect(r.stderr).toContain('legacy-payments (');
    expect(r.report.servers[0]!.trusted).toBe(true);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('matches no server');
  });

  it('a name of no server: not trusted, and stderr says so with the names there are', async () => {
    const r = await audit(['--trust', 'legacy-paymnets']);
    expect(r.report.servers[0]!.trusted).toBe(false);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `idemscan: trusted name "legacy-paymnets" matches no server scanned (their names: ${path.basename(process.execPath)} or legacy-payments)`,
    );
    expect(r.stderr).toContain('idempotent-hint-untrusted (1 finding): legacy-payments/set_status');
  });
});

it('scan --trust: the list key, in any case, never the name a server gives itself (any server of a list can claim one)', async () => {
  const list = path.join(dir, 'targets.json');
  writeFileSync(
    list,
    JSON.stringify({
      servers: [
        { name: 'Notes', command: process.execPath, args: [FIXTURES.legacyStdio] },
        { name: 'other', command: process.execPath, args: [FIXTURES.modernStdio] },
      ],
    }),
  );
  const r = await idemscan([
    'scan',
    list,
    '--json',
    '-',
    '-q',
    '--out',
    path.join(dir, 'o-scan'),
    ...fast,
    '--trust',
    'notes,modern-payments',
  ]);
  expect(r.exitCode, r.stderr).toBe(0);
  const rep = Report.parse(JSON.parse(r.stdout));
  expect(rep.servers.map((s) => [s.name, s.trusted])).toEqual([
    ['Notes', true],
    ['other', false],
  ]);
  expect(rep.options.trust).toEqual(['notes', 'modern-payments']);
  // The names it lists are the ones --trust can match here: not "other or modern-payments".
  expect(r.stderr).toContain(
    'idemscan: trusted name "modern-payments" matches no server scanned (their names: Notes, other)',
  );
});

it('a target file\'s own "trusted": refused, the entry skipped with the file and field named', async () => {
  const list = path.join(dir, 'self-trusted.json');
  writeFileSync(
    list,
    JSON.stringify({
      servers: [
        { name: 'vouched', command: process.execPath, args: [FIXTURES.legacyStdio], trusted: true },
        { name: 'plain', command: process.execPath, args: [FIXTURES.legacyStdio] },
      ],
    }),
  );
  const r = await idemscan(['scan', list, '--json', '-', '-q', '--out', path.join(dir, 'o-self'), ...fast]);
  const rep = Report.parse(JSON.parse(r.stdout));
  expect(rep.servers.map((s) => [s.name, s.trusted])).toEqual([['plain', false]]);
  expect(rep.skipped).toEqual([
    expect.objectContaining({
      name: 'vouched',
      source: list,
      reason: expect.stringContaining('servers[0].trusted: a target file may not mark its own servers trusted'),
    }),
  ]);
});
