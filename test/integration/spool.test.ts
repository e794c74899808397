/**
 * `scan`'s spool (docs/SCALING.md): each finished server is written to <out>/scan.spool.ndjson as
 * it finishes, the reports are written from it, an interrupted run keeps it, and `--resume` reads it
 * back (as untrusted input) and scans only the rest. Real stdio fixture servers, the built CLI.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/model/summary.js';
import type { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';
import { spawnLog, waitGone } from '../helpers/processes.js';

const SPOOL = 'scan.spool.ndjson';
const readReport = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as Report;
const modern = (name: string, env: Record<string, string>) => ({
  name,
  command: process.execPath,
  args: [FIXTURES.modernStdio],
  env,
});

function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-spool-'));
  const log = spawnLog();
  const env = { IDEMSCAN_FIXTURE_LOG: log.file };
  const list = (servers: unknown[]) => {
    const file = path.join(dir, 'targets.json');
    writeFileSync(file, JSON.stringify({ servers }));
    return file;
  };
  return { dir, out: path.join(dir, 'out'), log, env, list };
}

/** `scan FILE` with a hanging last server, stopped by SIGINT once `servers` lines are in the spool. */
async function interruptedScan(file: string, out: string, servers: number) {
  const child = execa(
    process.execPath,
    [CLI, 'scan', file, '--out', out, '--concurrency', String(servers + 1), '--timeout', '60000'],
    { reject: false },
  );
  const spooled = () =>
    existsSync(path.join(out, SPOOL)) ? readFileSync(path.join(out, SPOOL), 'utf8').split('\n').length - 2 : 0;
  const deadline = Date.now() + 30_000;
  while (spooled() < servers && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(spooled()).toBe(servers);
  child.kill('SIGINT');
  const stopped = await child;
  expect(stopped.exitCode).toBe(130);
  return stopped;
}

describe('the spool', () => {
  it('a complete scan writes report.json from it, in list order, and removes it', async () => {
    const { out, env, list } = setup();
    const file = list([
      modern('zeta', env),
      { name: 'crash', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'crash' } },
      modern('alpha', env),
    ]);
    const r = await idemscan(['scan', file, '--out', out, '--format', 'json,csv,ndjson', '--concurrency', '3']);
    expect(r.exitCode, r.stderr).toBe(0);
    const text = readFileSync(path.join(out, 'report.json'), 'utf8');
    const report = JSON.parse(text) as Report;
    // Streamed a server at a time, yet the same bytes JSON.stringify writes, and the same summary.
    expect(text).toBe(JSON.stringify(report, null, 2) + '\n');
    expect(report.servers.map((s) => s.name)).toEqual(['zeta', 'crash', 'alpha']);
    expect(report.summary).toEqual(summarize(report.servers));
    expect(report.summary).toMatchObject({ servers: 3, serversOk: 2, serversFailed: 1 });
    expect(readFileSync(path.join(out, 'tools.csv'), 'utf8').split('\r\n').length).toBeGreaterThan(3);
    expect(existsSync(path.join(out, SPOOL))).toBe(false);
    // The table was printed from the spool too.
    expect(r.stdout).toMatch(/zeta/);
    expect(r.stdout).toMatch(/crash/);
  });

  it('Ctrl-C keeps the spool; --resume scans only what it lacks or what changed', async () => {
    const { out, log, env, list } = setup();
    const first = list([
      modern('a', env),
      modern('b', env),
      { name: 'c', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
    ]);
    const stopped = await interruptedScan(first, out, 2);
    expect(stopped.stderr).toContain(`kept in ${path.join(out, SPOOL)}`);
    const interrupted = readReport(out);
    expect(interrupted.options.interrupted).toBe(true);
    expect(interrupted.servers.map((s) => s.name)).toEqual(['a', 'b']);
    expect(existsSync(path.join(out, SPOOL))).toBe(true);
    await waitGone(log.entries().map((e) => e.pid));

    // A field no idemscan writes, added to a's line, is not carried into the report.
    const lines = readFileSync(path.join(out, SPOOL), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"name":"a"'));
    const line = JSON.parse(lines[at]!);
    lines[at] = JSON.stringify({ ...line, planted: 1, server: { ...line.server, planted: 'x' } });
    writeFileSync(path.join(out, SPOOL), lines.join('\n'));

    // b's launch recipe changed (a new variable): scanned again; c is no longer hanging.
    const spawnsBefore = log.entries().length;
    const second = list([modern('a', env), modern('b', { ...env, EXTRA: '1' }), modern('c', env)]);
    const resumed = await idemscan(['scan', second, '--out', out, '--resume', '--concurrency', '3']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('--resume: 1 of 3 servers read back');
    expect(resumed.stderr).toContain('1 in the spool are not in this list, or their target changed');
    expect(log.entries().length - spawnsBefore).toBe(2);
    const report = readReport(out);
    expect(report.servers.map((s) => s.name)).toEqual(['a', 'b', 'c']);
    expect(report.options.resumed).toBe(1);
    expect(report.options.interrupted).toBeUndefined();
    expect(report.startedAt).toBe(interrupted.startedAt);
    expect(report.summary).toEqual(summarize(report.servers));
    expect(existsSync(path.join(out, SPOOL))).toBe(false);
    expect(readFileSync(path.join(out, 'report.json'), 'utf8')).not.toContain('planted');
  });

  it('--resume without a spool, or with a bad one, is a usage error naming the file and line', async () => {
    const { out, env, list } = setup();
    const file = list([modern('a', env)]);
    const none = await idemscan(['scan', file, '--out', out, '--resume']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain(`--resume: ${path.join(out, SPOOL)}: cannot read`);
    expect(none.stderr).toContain('a scan interrupted with this --out leaves one');

    // A spool with a good first server, then one whose verdict no idemscan writes.
    const ok = await idemscan(['scan', file, '--out', out, '--format', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const server = readReport(out).servers[0]!;
    const header = {
      idemscanSpool: 1,
      schemaVersion: readReport(out).schemaVersion,
      startedAt: new Date().toISOString(),
    };
    const bad = { ...server, tools: server.tools.map((t) => ({ ...t, verdict: 'safe-trust-me' })) };
    const lines = [header, { key: 'x', server }, { key: 'y', server: bad }].map((l) => JSON.stringify(l));
    writeFileSync(path.join(out, SPOOL), lines.join('\n') + '\n');
    const hostile = await idemscan(['scan', file, '--out', out, '--resume']);
    expect(hostile.exitCode).toBe(2);
    expect(hostile.stderr).toMatch(/--resume: .*scan\.spool\.ndjson: line 3: server\.tools\[0\]\.verdict: /);

    writeFileSync(path.join(out, SPOOL), JSON.stringify({ ...header, schemaVersion: '99' }) + '\n');
    const other = await idemscan(['scan', file, '--out', out, '--resume']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('written for report schema 99');

    writeFileSync(path.join(out, SPOOL), 'not json\n');
    const garbage = await idemscan(['scan', file, '--out', out, '--resume']);
    expect(garbage.exitCode).toBe(2);
    expect(garbage.stderr).toContain('line 1: not JSON');
  });

  it('a last line cut short is dropped and said; that server is scanned again', async () => {
    const { out, log, env, list } = setup();
    const first = list([
      modern('a', env),
      { name: 'b', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
    ]);
    await interruptedScan(first, out, 1);
    const spool = path.join(out, SPOOL);
    // As if killed while writing b's line: part of a line, no newline.
    appendFileSync(spool, '{"key":"0123","server":{"name":"b","sta');
    await waitGone(log.entries().map((e) => e.pid));
    const spawnsBefore = log.entries().length;
    const resumed = await idemscan(['scan', list([modern('a', env), modern('b', env)]), '--out', out, '--resume']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('--resume: 1 of 2 servers read back');
    expect(resumed.stderr).toContain('its last line was cut short');
    expect(log.entries().length - spawnsBefore).toBe(1);
    expect(readReport(out).servers.map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('a symlink planted at the spool name is replaced, not followed', async () => {
    const { dir, out, env, list } = setup();
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    const file = list([modern('a', env)]);
    await idemscan(['scan', file, '--out', out, '--format', 'json']);
    symlinkSync(victim, path.join(out, SPOOL));
    const r = await idemscan(['scan', file, '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: replacing ${path.join(out, SPOOL)}, the servers an interrupted scan kept`);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
  });
});
