/**
 * `scan`'s spool (docs/SCALING.md): each finished server is written to <out>/scan.spool.ndjson as
 * it finishes, the reports are written from it, an interrupted run keeps it, and `--resume` reads it
 * back (as untrusted input) and scans only the rest. Real stdio fixture servers, the built CLI.
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/model/summary.js';
import { SpoolKey } from '../../src/spool/spool-mac.js';
import type { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';
import { spawnLog, waitGone } from '../helpers/processes.js';

const SPOOL = 'scan.spool.ndjson';
// The spool key lives in the cache: one of this file's own, inherited by every CLI it runs.
const CACHE = mkdtempSync(path.join(os.tmpdir(), 'idemscan-spool-cache-'));
process.env.IDEMSCAN_CACHE = CACHE;
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

/** `scan FILE` with a hanging last server, stopped by SIGINT once `servers` lines are in the spool (`spool`, under `out`). */
async function interruptedScan(file: string, out: string, servers: number, flags: string[] = [], spool = SPOOL) {
  const child = execa(
    process.execPath,
    [CLI, 'scan', file, '--out', out, '--concurrency', String(servers + 1), '--timeout', '60000', ...flags],
    { reject: false },
  );
  const spooled = () =>
    existsSync(path.join(out, spool)) ? readFileSync(path.join(out, spool), 'utf8').split('\n').length - 2 : 0;
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
      modern('b', { ...env, EXTRA: '1' }),
      { name: 'c', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
    ]);
    const stopped = await interruptedScan(first, out, 2);
    expect(stopped.stderr).toContain(`kept in ${path.join(out, SPOOL)}`);
    const interrupted = readReport(out);
    expect(interrupted.options.interrupted).toBe(true);
    expect(interrupted.servers.map((s) => s.name)).toEqual(['a', 'b']);
    expect(existsSync(path.join(out, SPOOL))).toBe(true);
    await waitGone(log.entries().map((e) => e.pid));

    // b's launch recipe changed (a variable's value): scanned again; c is no longer hanging.
    const spawnsBefore = log.entries().length;
    const second = list([modern('a', env), modern('b', { ...env, EXTRA: '2' }), modern('c', env)]);
    const trusting = await idemscan(['scan', second, '--out', out, '--resume', '--trust', 'a']);
    expect(trusting.exitCode).toBe(2);
    expect(trusting.stderr).toContain('was scanned with other options (trust [] then, ["a"] now)');
    // --writable is one of the options a resumed scan must share (its real paths, sorted).
    const writing = await idemscan(['scan', second, '--out', out, '--resume', '--sandbox', '--writable', out]);
    expect(writing.exitCode).toBe(2);
    expect(writing.stderr).toContain(`writable none then, ${JSON.stringify([realpathSync(out)])} now`);
    const fewer = await idemscan(['scan', list([modern('a', env)]), '--out', out, '--resume']);
    expect(fewer.exitCode).toBe(2);
    expect(fewer.stderr).toContain('holds 1 server this list does not (b)');
    writeFileSync(
      second,
      JSON.stringify({ servers: [modern('a', env), modern('b', { ...env, EXTRA: '2' }), modern('c', env)] }),
    );
    const resumed = await idemscan(['scan', second, '--out', out, '--resume', '--concurrency', '3']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('--resume: 1 of 3 servers read back');
    expect(resumed.stderr).toContain('1 in the spool whose target changed since: scanned again');
    expect(log.entries().length - spawnsBefore).toBe(2);
    const report = readReport(out);
    expect(report.servers.map((s) => s.name)).toEqual(['a', 'b', 'c']);
    expect(report.options.resumed).toBe(1);
    expect(report.options.interrupted).toBeUndefined();
    expect(report.startedAt).toBe(interrupted.startedAt);
    expect(report.summary).toEqual(summarize(report.servers));
    expect(existsSync(path.join(out, SPOOL))).toBe(false);
  });

  it('--resume reads back only lines this machine signed, each checked, and names the file and line', async () => {
    const { out, env, list } = setup();
    const file = list([
      modern('a', env),
      { name: 'b', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
    ]);
    const none = await idemscan(['scan', file, '--out', out, '--resume']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain(`--resume: ${path.join(out, SPOOL)}: cannot read`);
    expect(none.stderr).toContain('a scan interrupted with this --out leaves one');

    await interruptedScan(file, out, 1);
    const spool = path.join(out, SPOOL);
    const [headerLine, serverLine] = readFileSync(spool, 'utf8').split('\n') as [string, string];
    const resume = async (text: string) => {
      writeFileSync(spool, text);
      return idemscan(['scan', file, '--out', out, '--resume']);
    };
    // A genuine line with its verdict made safer, and a spool planted without the key: refused by the MAC.
    const edited = await resume(
      `${headerLine}\n${serverLine.replace('"verdict":"unprotected"', '"verdict":"keyed"')}\n`,
    );
    expect(edited.exitCode).toBe(2);
    expect(edited.stderr).toMatch(/--resume: .*scan\.spool\.ndjson: line 2: not signed by this machine's spool key/);
    const header = JSON.parse(headerLine.slice(65));
    const planted = await resume(`${'0'.repeat(64)} ${JSON.stringify(header)}\n`);
    expect(planted.stderr).toContain("line 1: not signed by this machine's spool key");
    // Signed with this machine's key, yet not what idemscan writes: the report's schema still refuses it.
    const key = SpoolKey.of(CACHE);
    const line = JSON.parse(serverLine.slice(65));
    const bad = { ...line, server: { ...line.server, tools: [{ ...line.server.tools[0], verdict: 'safe-trust-me' }] } };
    const invalid = await resume(`${headerLine}\n${key.signLine(header.spool, 2, JSON.stringify(bad)).toString()}`);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/line 2: server\.tools\[0\]\.verdict: /);
    const other = await resume(key.signLine('', 1, JSON.stringify({ ...header, schemaVersion: '99' })).toString());
    expect(other.stderr).toContain('written for report schema 99');
    const garbage = await resume('not json\n');
    expect(garbage.stderr).toContain("line 1: not signed by this machine's spool key");
    // Not a regular file: a FIFO would block the read, a symlink is not followed.
    rmSync(spool);
    execFileSync('mkfifo', [spool]);
    const fifo = await idemscan(['scan', file, '--out', out, '--resume']);
    expect(fifo.exitCode).toBe(2);
    expect(fifo.stderr).toContain('not a regular file');
  });

  it('--resume refuses a line spliced from a spool scanned with --trust, or moved to another line', async () => {
    const { dir, out, log, env, list } = setup();
    const hang = { name: 'c', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } };
    const first = list([modern('a', env), modern('b', env), hang]);
    const trusting = path.join(dir, 'trusting');
    await interruptedScan(first, trusting, 2, ['--trust', 'a']);
    await interruptedScan(first, out, 2);
    await waitGone(log.entries().map((e) => e.pid));
    const spool = path.join(out, SPOOL);
    const [header, ...servers] = readFileSync(spool, 'utf8').split('\n').slice(0, -1);
    const trusted = readFileSync(path.join(trusting, SPOOL), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"trusted":true'));
    expect(trusted).toHaveLength(1);
    const second = list([modern('a', env), modern('b', env), modern('c', env)]);
    const resume = async (lines: string[]) => {
      writeFileSync(spool, lines.join('\n') + '\n');
      return idemscan(['scan', second, '--out', out, '--resume']);
    };
    // Each signed by this machine's key, but for another spool: a trusted server in a report without --trust.
    const spliced = await resume([header!, trusted[0]!]);
    expect(spliced.exitCode, spliced.stderr).toBe(2);
    expect(spliced.stderr).toContain("line 2: not signed by this machine's spool key");
    expect(readReport(out).servers.some((s) => s.trusted)).toBe(false);
    const swapped = await resume([header!, servers[1]!, servers[0]!]);
    expect(swapped.exitCode, swapped.stderr).toBe(2);
    expect(swapped.stderr).toContain("line 2: not signed by this machine's spool key");
    const genuine = await resume([header!, ...servers]);
    expect(genuine.exitCode, genuine.stderr).toBe(0);
    expect(genuine.stderr).toContain('--resume: 2 of 3 servers read back');
  });

  it('--resume refuses a spool of the format before 2 (a `mac` field in each line) and says to scan again', async () => {
    const { out, env, list } = setup();
    const hang = { name: 'b', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } };
    await interruptedScan(list([modern('a', env), hang]), out, 1);
    const spool = path.join(out, SPOOL);
    const line = readFileSync(spool, 'utf8').split('\n')[0]!;
    // That format's header, signed as it signed it: the MAC over the JSON, then added as its last field.
    const { mac: _m, spool: _s, ...header } = JSON.parse(line.slice(line.indexOf('{')));
    const v1 = JSON.stringify({ ...header, idemscanSpool: 1 });
    writeFileSync(spool, `${v1.slice(0, -1)},"mac":"${SpoolKey.of(CACHE).mac(v1)}"}\n`);
    const r = await idemscan(['scan', list([modern('a', env), modern('b', env)]), '--out', out, '--resume']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('line 1: a spool of an older idemscan (spool format 1)');
    expect(r.stderr).toContain('scan again without --resume');
  });

  it('a planted 60 MiB line is refused by its MAC before it is parsed (in a heap of 128 MiB)', async () => {
    const { out, env, list } = setup();
    const hang = { name: 'b', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } };
    await interruptedScan(list([modern('a', env), hang]), out, 1);
    const spool = path.join(out, SPOOL);
    const header = readFileSync(spool, 'utf8').split('\n')[0]!;
    // 20 million empty objects: gigabytes of heap once parsed.
    const tools = `[${'{},'.repeat(20 * 1024 * 1024)}{}]`;
    const json = `{"key":"${'0'.repeat(32)}","server":{"name":"a","status":"ok","tools":${tools}}`;
    const second = list([modern('a', env), modern('b', env)]);
    // As an attacker would write it for today's format (a `mac` field) and for this one (a MAC before the JSON).
    for (const planted of [`${json},"mac":"${'0'.repeat(64)}"}`, `${'0'.repeat(64)} ${json}}`]) {
      writeFileSync(spool, `${header}\n${planted}\n`);
      const r = await execa(
        process.execPath,
        ['--max-old-space-size=128', CLI, 'scan', second, '--out', out, '--resume'],
        { reject: false, timeout: 60_000 },
      );
      expect(r.exitCode, r.stderr.slice(0, 500)).toBe(2);
      expect(r.stderr).toContain("line 2: not signed by this machine's spool key");
    }
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
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
  });

  /** Shard 1/2 holds c and d, shard 2/2 a and b (by their names' hash); `hang` makes the first of each hang. */
  function shardList(env: Record<string, string>, hang: boolean) {
    const slow = (name: string) =>
      hang
        ? { name, command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } }
        : modern(name, env);
    return [slow('c'), modern('d', env), slow('a'), modern('b', env)];
  }
  const shardScan = (file: string, out: string, shard: string, extra: string[] = []) =>
    idemscan(['scan', file, '--shard', shard, '--out', out, '--concurrency', '2', '--timeout', '4000', '-q', ...extra]);
  const interrupted = /interrupted scan/;

  it('two shards at once: each its own spool, none taken for an interrupted scan (separate --out: nothing said)', async () => {
    const { dir, out, env, list } = setup();
    const file = list(shardList(env, true));
    // The same --out (the README's loop before): the other shard's spool is left alone, and the race said.
    const first = shardScan(file, out, '1/2', ['--json', path.join(dir, 'shard-1.json')]);
    const deadline = Date.now() + 20_000;
    while (!existsSync(path.join(out, 'scan.spool.shard-1-of-2.ndjson')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const second = await shardScan(file, out, '2/2', ['--json', path.join(dir, 'shard-2.json')]);
    const one = await first;
    expect([one.exitCode, second.exitCode], one.stderr + second.stderr).toEqual([0, 0]);
    expect(one.stderr + second.stderr).not.toMatch(interrupted);
    expect(second.stderr).toMatch(/another scan is writing to .* now \(scan\.spool\.shard-1-of-2\.ndjson, pid \d+\)/);
    const names = (i: number) =>
      (JSON.parse(readFileSync(path.join(dir, `shard-${i}.json`), 'utf8')) as Report).servers.map((s) => s.name);
    expect([names(1), names(2)]).toEqual([
      ['c', 'd'],
      ['a', 'b'],
    ]);
    expect(existsSync(path.join(out, 'scan.spool.shard-1-of-2.ndjson'))).toBe(false);
    expect(existsSync(path.join(out, 'scan.spool.shard-2-of-2.ndjson'))).toBe(false);

    // Each shard its own --out, as the README's loop now: not a warning.
    const [a, b] = await Promise.all([
      shardScan(file, path.join(dir, 'shard-1'), '1/2'),
      shardScan(file, path.join(dir, 'shard-2'), '2/2'),
    ]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(a.stderr + b.stderr).not.toContain('warning');
  });

  it('scans one after another into one --out: nothing said', async () => {
    const { out, env, list } = setup();
    const file = list(shardList(env, false));
    for (const shard of ['1/2', '2/2', '1/2']) {
      const r = await shardScan(file, out, shard);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('warning');
    }
    const whole = await idemscan(['scan', file, '--out', out, '-q']);
    expect(whole.stderr).not.toContain('warning');
  });

  it(
    'the same list scanned twice at once into one --out: the second spools beside the first, never over it',
    { timeout: 150_000 },
    async () => {
      const { dir, out, log, env, list } = setup();
      const hang = { name: 'h', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } };
      const hanging = list([modern('a', env), hang]);
      const start = () =>
        execa(process.execPath, [CLI, 'scan', hanging, '--out', out, '--timeout', '120000', '-q'], { reject: false });
      const home = path.join(out, SPOOL);
      const text = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
      /** Until `file` holds the header and one server (a finished: the scan is past its start). */
      const spooled = async (file: string) => {
        const deadline = Date.now() + 40_000;
        while (text(file).split('\n').length <= 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(text(file).split('\n').length, file).toBeGreaterThan(2);
      };
      const first = start();
      await spooled(home);
      const header = text(home).split('\n')[0];
      const one = path.join(dir, 'one.json'); // beside targets.json, which `list` rewrites
      writeFileSync(one, JSON.stringify({ servers: [modern('a', env)] }));
      const beside = await idemscan(['scan', one, '--out', out, '-q']);
      expect(beside.exitCode, beside.stderr).toBe(0);
      expect(beside.stderr).not.toMatch(interrupted);
      expect(beside.stderr).toMatch(/another scan is writing to .* now \(scan\.spool\.ndjson, pid \d+\)/);
      expect(text(home).split('\n')[0]).toBe(header);
      const resume = await idemscan(['scan', hanging, '--out', out, '-q', '--resume']);
      expect(resume.exitCode).toBe(2);
      expect(resume.stderr).toMatch(
        /--resume: .*scan\.spool\.ndjson is being written by a scan running now \(pid \d+\)/,
      );

      // Interrupted while the first still runs: kept beside it, and said where.
      const second = start();
      await spooled(path.join(out, `${SPOOL}.${second.pid}`));
      second.kill('SIGINT');
      const stopped = await second;
      expect(stopped.exitCode).toBe(130);
      expect(stopped.stderr).toContain(
        `kept in ${path.join(out, `${SPOOL}.${second.pid}`)}: another scan's spool is at`,
      );
      // Interrupted once the name is free again (here: the first's spool removed by hand): moved to
      // the name --resume reads.
      const third = start();
      await spooled(path.join(out, `${SPOOL}.${third.pid}`));
      rmSync(home);
      third.kill('SIGINT');
      const moved = await third;
      expect(moved.exitCode, moved.stderr).toBe(130);
      expect(moved.stderr).toContain(`kept in ${home}: the same scan with --resume`);
      expect(existsSync(path.join(out, `${SPOOL}.${third.pid}`))).toBe(false);
      first.kill('SIGINT');
      expect((await first).exitCode).toBe(130);
      await waitGone(log.entries().map((e) => e.pid));
      const resumed = await idemscan(['scan', list([modern('a', env), modern('h', env)]), '--out', out, '--resume']);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(readReport(out).options.resumed).toBe(1);
    },
  );

  it("an interrupted shard's spool: another shard leaves it alone, the same shard resumes it or replaces it, warning", async () => {
    const { dir, out, log, env, list } = setup();
    const file = list(shardList(env, true));
    const spool = 'scan.spool.shard-1-of-2.ndjson';
    await interruptedScan(file, out, 1, ['--shard', '1/2'], spool);
    await waitGone(log.entries().map((e) => e.pid));
    const kept = readFileSync(path.join(out, spool));
    const other = await shardScan(file, out, '2/2');
    expect(other.stderr).not.toContain('warning');
    expect(readFileSync(path.join(out, spool))).toEqual(kept);
    const healed = path.join(dir, 'healed.json'); // beside targets.json, which `list` rewrites
    writeFileSync(healed, JSON.stringify({ servers: shardList(env, false) }));
    const resumed = await shardScan(healed, out, '1/2', ['--resume']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(readReport(out).options.resumed).toBe(1);
    expect(readReport(out).servers.map((s) => s.name)).toEqual(['c', 'd']);
    expect(existsSync(path.join(out, spool))).toBe(false);

    await interruptedScan(file, out, 1, ['--shard', '1/2'], spool);
    await waitGone(log.entries().map((e) => e.pid));
    const fresh = await shardScan(healed, out, '1/2');
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain(`warning: replacing ${path.join(out, spool)}, the servers an interrupted scan kept`);
  });
});
