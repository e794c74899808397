/**
 * Bad input and idemscan's own stderr lines, through the built CLI (issue 27, item 7): every kind
 * of bad input is one `InputError`, exit 2 with one line, mapped once in main.ts; every value a
 * message quotes is escaped and cut to its named cap (render/message.ts, `LIMITS.shown`); and the
 * one writer of warnings and notes (shell/say.ts) drops the notes under -q, never a warning.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (args: string[]) => idemscan(args, { cwd: dir });
const write = (name: string, data: unknown) => {
  writeFileSync(path.join(dir, name), typeof data === 'string' ? data : JSON.stringify(data));
  return name;
};
const node = process.execPath;
const fast = ['--probe-timeout', '500', '--timeout', '10000'];
/** What could rewrite a terminal: ESC, CR, BEL, and a bidi override. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u001b\r\u0007\u202e]/;
const ESC = '\u001b[31m';

const report = write('report.json', reportOf([okServer('s', [{ name: 'get_x', inputSchema: { type: 'object' } }])]));
const tools = write('tools.json', { tools: [{ name: 'get_x', inputSchema: { type: 'object' } }] });

describe('bad input of any kind', () => {
  it('a target the command line makes that scan() refuses is exit 2 with its words, not an internal error', async () => {
    // `--name ''` reached scan()'s ScanInputError, which the CLI printed as a bug with a stack.
    const r = await run(['audit', '--name', '', '--out', 'o-name', ...fast, '--', node, FIXTURES.modernStdio]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('idemscan: targets[0].name: required: a non-empty string');
  });

  it.each([
    ['a flag', ['scan', '--fail-on', 'warnign'], /^idemscan: --fail-on: unknown "warnign"; did you mean "warning"\?/],
    ['a target file', ['scan', write('broken.json', '{')], /^idemscan: broken\.json: not valid JSON/],
    [
      'a saved report',
      ['report', write('bad-report.json', '{}')],
      /^idemscan: bad-report\.json: not an idemscan report/,
    ],
    ['a lock file', ['scan', tools, '--baseline', write('x.lock.json', '[]')], /^idemscan: --baseline x\.lock\.json: /],
    ['a profile', ['scan', tools, '--profile', './none.json'], /^idemscan: --profile \.\/none\.json: cannot read it/],
    ['a plan', ['probe', '--plan', 'none.json', '--', node], /^idemscan: --plan none\.json: cannot read it/],
    ['a spool', ['scan', tools, '--resume', '--out', 'o-spool'], /^idemscan: --resume: .*: cannot read: no such file/],
    ['a shard', ['scan', tools, '--shard', '5/4'], /^idemscan: --shard: expected I\/N/],
  ])('%s: exit 2, one line, nothing else', async (_, args, said) => {
    const r = await run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(said);
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });
});

describe('what an error quotes', () => {
  it('a file name is escaped (a cloned repository names its files)', async () => {
    const file = write(`evil${ESC}.json`, '{');
    const r = await run(['scan', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^idemscan: evil\\u001b\[31m\.json: not valid JSON/);
    expect(r.stderr).not.toMatch(RAW);
  });

  it('a profile path is escaped', async () => {
    const r = await run(['scan', tools, '--profile', `./p${ESC}.json`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('idemscan: --profile ./p\\u001b[31m.json: cannot read it: no such file (ENOENT)');
  });

  it("the server's tool names a plan error lists are escaped", async () => {
    // The server lists `evil<ESC>[31mred<CR>name`; the plan names a tool it does not list.
    const plan = write('plan.json', { tools: { nope: {} } });
    const r = await run([
      'probe',
      '--plan',
      plan,
      '--out',
      'o-plan',
      '--env',
      'MODE=huge-description',
      ...fast,
      '--',
      node,
      FIXTURES.raw,
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('which the server does not list (it lists huge_doc, evil\\u001b[31mred\\u000dname)');
    expect(r.stderr).not.toMatch(RAW);
  });

  it('a long path is cut to the path cap', async () => {
    const long = `${'./'.repeat(2_000)}missing.json`;
    const r = await run(['scan', long]);
    expect(r.exitCode).toBe(2);
    const [line] = r.stderr.split('\n');
    expect(line!.length).toBeLessThan(400);
    expect(line).toMatch(/^idemscan: \.\/.*: cannot read/);
  });
});

describe('warnings and notes', () => {
  it('a file written is named escaped, on a note', async () => {
    // report's own "wrote" line printed its --out as given.
    const out = `o${ESC}`;
    const r = await run(['report', report, '--format', 'md', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('idemscan: wrote o\\u001b[31m/report.md');
  });

  it('-q drops the notes and keeps the warnings: scan', async () => {
    const list = write('later.json', { servers: [{ name: 'later', command: 'docker', skip: 'needs Docker' }] });
    write('.idemscan-suppress.json', [{ rule: 'no-such-rule', reason: 'r', expires: '2000-01-01' }]);
    const loud = await run(['scan', tools, list, '--out', 'o-loud']);
    const quiet = await run(['scan', tools, list, '--out', 'o-quiet', '-q']);
    rmSync(path.join(dir, '.idemscan-suppress.json'));
    expect(loud.exitCode, loud.stderr).toBe(0);
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    const skipped = 'idemscan: skipped later (later.json): needs Docker';
    const expired =
      /^idemscan: warning: \.idemscan-suppress\.json: suppressions\[0\] \(rule no-such-rule\) expired on 2000-01-01/m;
    for (const r of [loud, quiet]) {
      expect(r.stderr).toContain(skipped);
      expect(r.stderr).toMatch(expired);
    }
    expect(loud.stderr).toContain('idemscan: wrote o-loud/report.json');
    expect(quiet.stderr).not.toContain('wrote');
    expect(quiet.stdout).toBe('');
  });

  it('-q drops the notes: merge and index', async () => {
    mkdirSync(path.join(dir, 'runs', '2026-01-01'), { recursive: true });
    write('runs/2026-01-01/report.json', reportOf([okServer('s', [])]));
    const merged = await run(['merge', report, '--json', 'merged.json']);
    const indexed = await run(['index', 'runs']);
    // Every file merge wrote, then what it merged.
    expect(merged.stderr).toMatch(/^idemscan: wrote merged\.json\nidemscan: merged 1 report: 1 server/);
    expect(indexed.stderr).toMatch(/idemscan: indexed 1 run in runs$/);
    for (const args of [
      ['merge', report, '--json', 'merged-q.json', '-q'],
      ['index', 'runs', '-q'],
    ]) {
      const r = await run(args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
    }
  });
});
