/**
 * The built CLI on the rules fixtures: `--fail-on` exit codes, and the Markdown and SARIF of one
 * scan (snapshots, schema validation, and the findings every fixture tool should get).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES, RULES_FINDINGS, RULES_SETS, type RulesSet } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sarifValidator } from '../helpers/sarif.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-fail-on-'));
const spawnLog = path.join(dir, 'spawns.log');
const entry = (set: RulesSet, log = spawnLog) => ({
  name: set,
  command: process.execPath,
  args: [FIXTURES.rules],
  env: { SET: set, IDEMSCAN_FIXTURE_LOG: log },
});
function list(name: string, servers: unknown[]): string {
  writeFileSync(path.join(dir, name), JSON.stringify({ servers }, null, 2));
  return name; // relative: the CLI runs in `dir`, as a CI job runs in its repository
}
const all = list(
  'rules.json',
  RULES_SETS.map((set) => entry(set)),
);
const clean = list('clean.json', [entry('clean')]);
const findings = list('findings.json', [entry('findings')]);
const server = list('server.json', [entry('server')]);
const fast = ['--probe-timeout', '500', '--timeout', '10000', '-q'];
let n = 0;
const scan = (file: string, ...args: string[]) =>
  idemscan(['scan', file, '--out', `out-${n++}`, ...fast, ...args], { cwd: dir });

describe('--fail-on', () => {
  it('0 without --fail-on, whatever was found', async () => {
    expect((await scan(all)).exitCode).toBe(0);
  });

  it('1 when a severity at or above the one named is found, and says what matched', async () => {
    const r = await scan(findings, '--fail-on', 'error');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('idemscan: --fail-on matched:\n');
    expect(r.stderr).toContain('\n  malformed-hint (1 finding): findings/bad_hint');
    expect(r.stderr).not.toContain('weak-key-only');
    expect((await scan(server, '--fail-on', 'warning')).exitCode).toBe(0); // info only
    expect((await scan(server, '--fail-on', 'info')).exitCode).toBe(1);
  });

  it('0 on the clean fixture at any severity', async () => {
    expect((await scan(clean, '--fail-on', 'info')).exitCode).toBe(0);
  });

  it('1 on a rule id or a verdict that is found, 0 when it is not', async () => {
    expect((await scan(findings, '--fail-on', 'weak-key-only')).exitCode).toBe(1);
    expect((await scan(clean, '--fail-on', 'weak-key-only,malformed-tool-entry')).exitCode).toBe(0);
    const verdict = await scan(clean, '--fail-on', 'unprotected');
    expect(verdict.exitCode).toBe(1);
    expect(verdict.stderr).toContain('unprotected (3 tools): clean/retarget_widget, ');
    expect((await scan(server, '--fail-on', 'unprotected,idempotent')).exitCode).toBe(0);
  });

  it('trust silences idempotent-hint-untrusted', async () => {
    expect((await scan(findings, '--fail-on', 'idempotent-hint-untrusted')).exitCode).toBe(1);
    expect((await scan(findings, '--fail-on', 'idempotent-hint-untrusted', '--trust', 'findings')).exitCode).toBe(0);
  });

  it('2 for an unknown word or an empty list, before any server is started', async () => {
    const log = path.join(dir, 'usage-spawns.log');
    const file = list('usage.json', [entry('findings', log)]);
    const r = await scan(file, '--fail-on', 'error,bogus');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--fail-on: unknown "bogus"');
    expect((await scan(file, '--fail-on', ' , ')).exitCode).toBe(2);
    expect(existsSync(log)).toBe(false);
  });

  it('3 when every target failed, even if --fail-on would match', async () => {
    const crash = list('crash.json', [
      { name: 'crash', command: process.execPath, args: [FIXTURES.raw], env: { MODE: 'crash' } },
    ]);
    expect((await scan(crash, '--fail-on', 'info,unprotected')).exitCode).toBe(3);
  });

  it('works the same on audit', async () => {
    const audit = (set: RulesSet) =>
      idemscan(
        [
          'audit',
          '--out',
          `out-${n++}`,
          ...fast,
          '--fail-on',
          'error',
          '--env',
          `SET=${set}`,
          '--',
          process.execPath,
          FIXTURES.rules,
        ],
        { cwd: dir },
      );
    expect((await audit('findings')).exitCode).toBe(1);
    expect((await audit('clean')).exitCode).toBe(0);
  });
});

describe('outputs of a scan of the rules fixtures', () => {
  const out = path.join(dir, 'formats');
  let report: Report;
  beforeAll(async () => {
    const r = await idemscan(['scan', all, '--out', out, '--format', 'json,md,sarif', ...fast], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    report = Report.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
  });

  it('every fixture tool gets exactly its expected findings', () => {
    for (const s of report.servers) {
      const expected = RULES_FINDINGS[s.name as RulesSet];
      const got: Record<string, string[]> = {};
      for (const t of s.tools)
        if (t.findings.length > 0) got[t.name] = [...(got[t.name] ?? []), ...t.findings.map((f) => f.rule)];
      if (s.findings.length > 0) got[''] = s.findings.map((f) => f.rule);
      expect(got, s.name).toEqual(expected);
    }
  });

  it('Markdown matches its snapshot', async () => {
    const md = readFileSync(path.join(out, 'report.md'), 'utf8')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
      .replace(/idemscan@[\w.-]+\//g, 'idemscan@VERSION/')
      .replace(/^idemscan [\w.-]+,/m, 'idemscan VERSION,');
    await expect(md).toMatchFileSnapshot('../__snapshots__/rules-fixtures.md');
  });

  it('SARIF is valid 2.1.0, points at the target file, and matches its snapshot', async () => {
    const text = readFileSync(path.join(out, 'report.sarif'), 'utf8');
    const validate = sarifValidator();
    const log = JSON.parse(text);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'rules.json',
      uriBaseId: '%SRCROOT%',
    });
    const run = log.runs[0];
    run.tool.driver.version = 'VERSION';
    run.invocations[0].startTimeUtc = run.invocations[0].endTimeUtc = '<time>';
    run.originalUriBaseIds['%SRCROOT%'].uri = 'file:///SRCROOT/';
    const normalised = JSON.stringify(log, null, 2).replace(/idemscan@[\w.-]+\//g, 'idemscan@VERSION/') + '\n';
    await expect(normalised).toMatchFileSnapshot('../__snapshots__/rules-fixtures.sarif.json');
  });
});
