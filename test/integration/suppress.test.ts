/**
 * `--suppress` (issue 18, item 4; verdict entries, issue 28) on the rules and payments fixtures, real servers: a suppressed finding stays
 * in the JSON with its reason, is a SARIF result with an external suppression and its
 * justification, is not counted by --fail-on, is dimmed on a terminal and in HTML; an expired
 * entry no longer applies and says so; an entry without a reason is a usage error naming it; the
 * default file is read when present. Every SARIF run declares every rule, with stable fingerprints.
 * An entry naming a tool's verdict accepts it: `--fail-on unprotected` passes, SARIF dismisses it.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/model/catalogue.js';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sarifValidator } from '../helpers/sarif.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-suppress-'));
const write = (file: string, data: unknown) => (
  writeFileSync(path.join(dir, file), JSON.stringify(data, null, 2)),
  file
);
const server = ['--', process.execPath, FIXTURES.rules];
const audit = (args: string[], cwd = dir) =>
  idemscan(['audit', '--probe-timeout', '500', '--name', 'rules', ...args, ...server], {
    cwd,
    env: { SET: 'findings' },
  });
const readJson = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));

const accepted = {
  suppressions: [
    { rule: 'malformed-hint', tool: 'bad_hint', reason: 'old clients send the string; fixed in v3' },
    { rule: 'duplicate-tool-name', server: 'RULES', reason: 'two versions served on purpose until the 2027 migration' },
    { rule: 'write-name-read-only', reason: 'expired review', expires: '2020-01-31' },
  ],
};

describe('--suppress', () => {
  it('keeps suppressed findings with their reason, dismisses them in SARIF, and leaves them out of --fail-on', async () => {
    write('accepted.json', accepted);
    const r = await audit([
      '--suppress',
      'accepted.json',
      '--fail-on',
      'error',
      '--format',
      'json,sarif,md,html',
      '--out',
      'a',
    ]);
    // write-name-read-only (an error) is still counted: its entry expired.
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('--fail-on matched:\n  write-name-read-only (1 finding): rules/delete_record\n');
    const matched = r.stderr.slice(r.stderr.indexOf('--fail-on matched:'));
    expect(matched).not.toContain('malformed-hint');
    expect(matched).not.toContain('duplicate-tool-name');
    expect(r.stderr).toContain(
      'idemscan: warning: accepted.json: suppressions[2] (rule write-name-read-only) expired on 2020-01-31; it no longer applies (renew or remove it)',
    );
    const report = Report.parse(readJson('a/report.json'));
    const s = report.servers[0]!;
    expect(s.tools.find((t) => t.name === 'bad_hint')!.findings[0]!.suppressed).toEqual({
      reason: 'old clients send the string; fixed in v3',
      file: 'accepted.json',
    });
    expect(s.findings.find((f) => f.rule === 'duplicate-tool-name')!.suppressed?.reason).toBe(
      'two versions served on purpose until the 2027 migration',
    );
    expect(s.tools.find((t) => t.name === 'delete_record')!.findings[0]!.suppressed).toBeUndefined();
    expect(report.options.suppress).toEqual({ file: 'accepted.json', entries: 3, applied: 2, expired: 1 });

    const sarif = readJson('a/report.sarif');
    expect(sarifValidator()(sarif), JSON.stringify(sarifValidator().errors)).toBe(true);
    const results = sarif.runs[0].results as { ruleId: string; suppressions?: unknown[] }[];
    expect(results.filter((x) => x.suppressions).map((x) => [x.ruleId, x.suppressions])).toEqual([
      ['malformed-hint', [{ kind: 'external', justification: 'old clients send the string; fixed in v3' }]],
      [
        'duplicate-tool-name',
        [{ kind: 'external', justification: 'two versions served on purpose until the 2027 migration' }],
      ],
    ]);
    const md = readFileSync(path.join(dir, 'a/report.md'), 'utf8');
    expect(md).toContain('| ~~error~~ suppressed | bad\\_hint | malformed-hint |');
    expect(md).toContain('; 2 suppressed (reviewed, not counted).');
    const html = readFileSync(path.join(dir, 'a/report.html'), 'utf8');
    expect(html).toContain('<li class="suppressed"><span class="sev sev-error">error</span>');
    expect(html).toContain('suppressed: old clients send the string; fixed in v3');
  });

  it('every SARIF run declares every rule, and fingerprints do not change with suppression or message', async () => {
    const plain = await audit(['--format', 'sarif', '--out', 'b', '-q']);
    expect(plain.exitCode).toBe(0);
    const a = readJson('a/report.sarif').runs[0];
    const b = readJson('b/report.sarif').runs[0];
    for (const run of [a, b])
      expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual(
        CATALOGUE.filter((x) => x.scope !== 'probe').map((x) => x.id),
      );
    const prints = (run: { results: { partialFingerprints: unknown }[] }) =>
      run.results.map((x) => x.partialFingerprints);
    expect(prints(a)).toEqual(prints(b));
  });

  it('dims suppressed findings on a terminal only', async () => {
    write('one.json', [accepted.suppressions[0]]);
    const piped = await audit(['--suppress', 'one.json', '--out', 'c']);
    expect(piped.stdout).toContain('error    malformed-hint  (suppressed)\n');
    expect(piped.stdout).toContain('suppressed: old clients send the string; fixed in v3');
    expect(piped.stdout).not.toContain('\x1b[2m');
    expect(piped.stdout).toMatch(/; \d+ findings \([^)]*\), 1 suppressed\n/);
  });

  it("a server of a list that calls itself by another target's name (serverInfo.name) does not take that target's suppressions", async () => {
    // `evil` answers serverInfo.name "mine": an entry for server "mine" is the list's `mine` only.
    const rules = (env: Record<string, string>) => ({ command: process.execPath, args: [FIXTURES.rules], env });
    const list = write('two.json', {
      servers: [
        { name: 'mine', ...rules({ SET: 'findings' }) },
        { name: 'evil', ...rules({ SET: 'findings', SERVER_NAME: 'mine' }) },
      ],
    });
    write('mine.json', [{ rule: 'malformed-hint', server: 'mine', tool: 'bad_hint', reason: 'reviewed for mine' }]);
    const args = ['scan', list, '--probe-timeout', '500', '--format', 'json,sarif', '--out', 'f'];
    const r = await idemscan([...args, '--suppress', 'mine.json', '--fail-on', 'malformed-hint'], { cwd: dir });
    const report = Report.parse(readJson('f/report.json'));
    const badHint = (name: string) => {
      const s = report.servers.find((x) => x.name === name)!;
      return s.tools.find((t) => t.name === 'bad_hint')!.findings.find((f) => f.rule === 'malformed-hint')!;
    };
    expect(report.servers.map((s) => [s.name, s.serverInfo?.name])).toEqual([
      ['mine', 'rules-findings'],
      ['evil', 'mine'],
    ]);
    expect(badHint('mine').suppressed?.reason).toBe('reviewed for mine');
    expect(badHint('evil').suppressed).toBeUndefined();
    expect(report.options.suppress).toMatchObject({ applied: 1 });
    // SARIF dismisses mine's result only; evil's stays open.
    const results = readJson('f/report.sarif').runs[0].results as {
      ruleId: string;
      properties: { server: string };
      suppressions?: unknown[];
    }[];
    const hint = results.filter((x) => x.ruleId === 'malformed-hint');
    expect(hint.map((x) => [x.properties.server, x.suppressions !== undefined])).toEqual([
      ['mine', true],
      ['evil', false],
    ]);
    // --fail-on counts evil's finding: exit 1, naming evil only.
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('--fail-on matched:\n  malformed-hint (1 finding): evil/bad_hint');

    // audit of that one server without --name shows it as "mine": there the entry is its own.
    const gate = ['--suppress', 'mine.json', '--fail-on', 'malformed-hint', '--json', '-', '-q'];
    const one = await idemscan(['audit', '--probe-timeout', '500', '--env', 'SERVER_NAME=mine', ...gate, ...server], {
      cwd: dir,
    });
    expect(one.exitCode, one.stderr).toBe(0);
    const audited = Report.parse(JSON.parse(one.stdout)).servers[0]!;
    expect(audited.name).toBe('mine');
    expect(audited.tools.find((t) => t.name === 'bad_hint')!.findings[0]!.suppressed?.reason).toBe('reviewed for mine');
  });

  it('accepts a reviewed verdict per tool: --fail-on unprotected passes, the report and SARIF say why, the rest still fail', async () => {
    // The payments fixture: four unprotected tools (send_email, rotate_api_key, toggle_feature, submit_order).
    const payments = ['--', process.execPath, FIXTURES.legacyStdio];
    const gate = (args: string[]) =>
      idemscan(['audit', '--probe-timeout', '500', '--fail-on', 'unprotected', ...args, ...payments], { cwd: dir });
    const unprotected = ['send_email', 'rotate_api_key', 'toggle_feature', 'submit_order'];

    const before = await gate(['--format', 'json,sarif', '--out', 'v0', '-q']);
    expect(before.exitCode).toBe(1);
    expect(before.stderr).toContain(
      `unprotected (4 tools): ${unprotected.map((t) => `legacy-payments/${t}`).join(', ')}`,
    );
    const open = readJson('v0/report.sarif').runs[0];
    expect(sarifValidator()(readJson('v0/report.sarif')), JSON.stringify(sarifValidator().errors)).toBe(true);
    const verdictRule = open.tool.driver.rules.at(-1);
    expect(verdictRule).toMatchObject({ id: 'verdict/unprotected', defaultConfiguration: { level: 'error' } });
    expect(verdictRule.help.text).toContain('How to accept a reviewed tool');
    const verdictResults = (run: typeof open) =>
      (
        run.results as {
          ruleId: string;
          ruleIndex: number;
          level: string;
          properties: { tool: string };
          suppressions?: unknown[];
        }[]
      ).filter((r) => r.ruleId === 'verdict/unprotected');
    expect(verdictResults(open).map((r) => [r.properties.tool, r.level, r.ruleIndex, r.suppressions])).toEqual(
      unprotected.map((t) => [t, 'error', open.tool.driver.rules.length - 1, undefined]),
    );

    write('verdicts.json', {
      suppressions: [
        ...unprotected.slice(0, 3).map((tool) => ({ verdict: 'unprotected', tool, reason: `${tool} reviewed` })),
        {
          verdict: 'unprotected',
          tool: 'submit_order',
          server: 'legacy-payments',
          reason: 'until v2',
          expires: '2999-12-31',
        },
        { verdict: 'unprotected', tool: 'create_payment', reason: 'it is keyed: matches nothing' },
      ],
    });
    const after = await gate(['--suppress', 'verdicts.json', '--format', 'json,sarif,html', '--out', 'v1']);
    expect(after.exitCode, after.stderr).toBe(0);
    // The acceptance and its reason are shown where the tool's verdict is: the tool list and the page.
    expect(after.stdout).toContain('unprotected accepted: until v2');
    expect(readFileSync(path.join(dir, 'v1/report.html'), 'utf8')).toContain('accepted: until v2</small>');
    expect(after.stderr).toContain(
      'warning: verdicts.json: suppressions[4] (verdict unprotected, tool create_payment) matched no tool',
    );
    expect(after.stderr).toContain('4 tool verdicts accepted by verdicts.json');
    // In CI, with -q: the stale entry is still said; the counts are not.
    const quiet = await gate(['--suppress', 'verdicts.json', '--out', 'v1q', '-q']);
    expect(quiet.stderr).toContain('suppressions[4] (verdict unprotected, tool create_payment) matched no tool');
    expect(quiet.stderr).not.toContain('accepted by verdicts.json');
    const report = Report.parse(readJson('v1/report.json'));
    expect(report.servers[0]!.tools.find((t) => t.name === 'submit_order')!.accepted).toEqual({
      verdict: 'unprotected',
      reason: 'until v2',
      expires: '2999-12-31',
      file: 'verdicts.json',
    });
    expect(report.options.suppress).toEqual({ file: 'verdicts.json', entries: 5, applied: 0, expired: 0, accepted: 4 });
    expect(report.gate).toEqual({
      failOn: ['unprotected'],
      verdicts: ['unprotected'],
      matched: 0,
      matches: [],
      accepted: 4,
    });
    expect(sarifValidator()(readJson('v1/report.sarif')), JSON.stringify(sarifValidator().errors)).toBe(true);
    const dismissed = readJson('v1/report.sarif').runs[0];
    expect(verdictResults(dismissed).map((r) => [r.properties.tool, r.suppressions])).toEqual(
      unprotected.map((t, i) => [t, [{ kind: 'external', justification: i < 3 ? `${t} reviewed` : 'until v2' }]]),
    );

    // An expired entry no longer accepts: its tool fails the gate again, and the warning says so.
    write('expired.json', [{ verdict: 'unprotected', tool: 'send_email', reason: 'old', expires: '2020-01-31' }]);
    const expired = await gate(['--suppress', 'expired.json', '--json', '-']);
    expect(expired.exitCode).toBe(1);
    expect(expired.stderr).toContain('suppressions[0] (verdict unprotected, tool send_email) expired on 2020-01-31');
    expect(Report.parse(JSON.parse(expired.stdout)).gate?.matched).toBe(4);
  });

  it('a verdict entry names its tool, and never a rule too: usage errors naming the file and the entry', async () => {
    const bad = async (entries: unknown[]) => {
      write('bad.json', entries);
      const r = await audit(['--suppress', 'bad.json', '-q', '--out', 'g']);
      expect(r.exitCode).toBe(2);
      return r.stderr;
    };
    expect(await bad([{ verdict: 'unprotected', rule: 'missing-annotations', tool: 'x', reason: 'r' }])).toContain(
      '--suppress bad.json: invalid suppression suppressions[0] (rule missing-annotations, verdict unprotected, tool x): verdict: an entry names a rule or a verdict, not both',
    );
    expect(await bad([{ verdict: 'unprotected', reason: 'r' }])).toContain(
      'invalid suppression suppressions[0] (verdict unprotected): tool: required with a verdict',
    );
    expect(await bad([{ verdict: 'unsafe', tool: 'x', reason: 'r' }])).toContain(
      'invalid suppression suppressions[0] (verdict unsafe, tool x): verdict: Invalid option',
    );
    expect(await bad([{ tool: 'x', reason: 'r' }])).toContain('rule: required: a rule id, or a verdict with its tool');
  });

  it('reads .idemscan-suppress.json when present; an entry without a reason is a usage error naming it', async () => {
    const repo = path.join(dir, 'repo');
    mkdirSync(repo);
    writeFileSync(
      path.join(repo, '.idemscan-suppress.json'),
      JSON.stringify([{ rule: 'malformed-hint', reason: 'accepted' }]),
    );
    const r = await audit(['--fail-on', 'malformed-hint', '-q', '--out', 'd'], repo);
    expect(r.exitCode).toBe(0);
    writeFileSync(
      path.join(repo, '.idemscan-suppress.json'),
      JSON.stringify([
        { rule: 'malformed-hint', reason: 'ok' },
        { rule: 'missing-annotations', tool: 'create_widget' },
      ]),
    );
    const bad = await audit(['-q', '--out', 'e'], repo);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(
      '--suppress .idemscan-suppress.json: invalid suppression suppressions[1] (rule missing-annotations, tool create_widget): reason: required',
    );
  });
});
