/**
 * `--profile` through the built CLI on the profiles fixture (real processes): exit codes with
 * `--fail-on profile` and a profile id, the expected rule ids per tool, a team's own profile file,
 * a bad one (exit 2), the report's options.profiles and the SARIF rules catalogue.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Log } from 'sarif';
import { describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sarifValidator } from '../helpers/sarif.js';

type ProfilesSet = 'pass-openai' | 'pass-anthropic' | 'fail';
const LONG = 'export_every_invoice_of_the_account_as_a_single_spreadsheet_file_now';

/** Expected profile findings per tool of SET=fail (tools not listed have none), per profile. */
const PROFILE_FINDINGS: Record<string, Record<string, string[]>> = {
  'openai-apps': {
    no_annotations: ['openai-apps/explicit-hints', 'openai-apps/retry-disclosure'],
    null_hints: ['openai-apps/explicit-hints', 'openai-apps/retry-disclosure'],
    write_no_destructive: ['openai-apps/explicit-hints', 'openai-apps/retry-disclosure'],
  },
  'anthropic-directory': {
    no_annotations: [
      'anthropic-directory/title-required',
      'anthropic-directory/read-only-hint',
      'anthropic-directory/destructive-hint',
    ],
    null_hints: ['anthropic-directory/read-only-hint'],
    top_title_only: ['anthropic-directory/title-required'],
    [LONG]: ['anthropic-directory/name-length'],
    write_no_destructive: ['anthropic-directory/destructive-hint'],
  },
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-profiles-'));
const fast = ['--probe-timeout', '500', '--timeout', '10000', '-q'];
let n = 0;
const audit = (set: ProfilesSet, ...args: string[]) => {
  const out = path.join(dir, `out-${n++}`);
  const json = path.join(out, 'report.json');
  const run = idemscan(
    [
      'audit',
      '--out',
      out,
      '--json',
      json,
      '--env',
      `SET=${set}`,
      '--name',
      set,
      ...fast,
      ...args,
      '--',
      process.execPath,
      FIXTURES.profiles,
    ],
    { cwd: dir },
  );
  return Object.assign(run, { json, out });
};
const readReport = (file: string) => Report.parse(JSON.parse(readFileSync(file, 'utf8')));
/** Profile findings (rule ids with a `/`) per tool, tools without any left out. */
function profileFindings(report: Report, prefix = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of report.servers.flatMap((s) => s.tools)) {
    const ids = t.findings.map((f) => f.rule).filter((r) => r.includes('/') && r.startsWith(prefix));
    if (ids.length) out[t.name] = ids;
  }
  return out;
}

describe('--profile', () => {
  it('openai-apps: exit 0 on the passing set, 1 on the failing one, with the expected rule ids per tool', async () => {
    const pass = audit('pass-openai', '--profile', 'openai-apps', '--fail-on', 'profile');
    expect((await pass).exitCode).toBe(0);
    expect(profileFindings(readReport(pass.json))).toEqual({});

    const fail = audit('fail', '--profile', 'openai-apps', '--fail-on', 'profile');
    const r = await fail;
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('--fail-on matched:\n  openai-apps/explicit-hints (3 findings): ');
    const report = readReport(fail.json);
    expect(profileFindings(report)).toEqual(PROFILE_FINDINGS['openai-apps']);
    expect(report.options.profiles).toEqual([
      expect.objectContaining({ id: 'openai-apps', title: 'OpenAI ChatGPT app submission' }),
    ]);
    expect(report.options.profiles![0]!.path).toBeUndefined();
  });

  it('anthropic-directory: the same', async () => {
    expect((await audit('pass-anthropic', '--profile', 'anthropic-directory', '--fail-on', 'profile')).exitCode).toBe(
      0,
    );
    const fail = audit('fail', '--profile', 'anthropic-directory', '--fail-on', 'anthropic-directory');
    expect((await fail).exitCode).toBe(1);
    expect(profileFindings(readReport(fail.json))).toEqual(PROFILE_FINDINGS['anthropic-directory']);
  });

  it("each directory fails the other one's passing set; --fail-on a profile id or rule id gates on that one only", async () => {
    const cross = audit('pass-anthropic', '--profile', 'anthropic-directory,openai-apps', '--fail-on', 'openai-apps');
    const r = await cross;
    expect(r.exitCode).toBe(1);
    expect(profileFindings(readReport(cross.json), 'anthropic-directory/')).toEqual({});
    expect(Object.keys(profileFindings(readReport(cross.json), 'openai-apps/'))).toEqual([
      'list_invoices',
      'create_invoice',
      'delete_invoice',
    ]);
    // passing one profile's gate while failing the other's
    expect(
      (
        await audit(
          'pass-anthropic',
          '--profile',
          'anthropic-directory',
          '--profile',
          'openai-apps',
          '--fail-on',
          'anthropic-directory',
        )
      ).exitCode,
    ).toBe(0);
    const title = await audit(
      'pass-openai',
      '--profile',
      'anthropic-directory',
      '--fail-on',
      'anthropic-directory/title-required',
    );
    expect(title.exitCode).toBe(1);
  });

  it('without --fail-on the findings are reported and the exit code is 0; the table shows them', async () => {
    const r = await idemscan([
      'audit',
      '--out',
      path.join(dir, 'tbl'),
      '--format',
      'json,md',
      '--env',
      'SET=fail',
      '--profile',
      'anthropic-directory',
      '--rules-base-url',
      'https://example.org/idemscan/docs/rules/',
      '--probe-timeout',
      '500',
      '--',
      process.execPath,
      FIXTURES.profiles,
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('anthropic-directory/name-length');
    // Markdown links builtin profile rules to their pages under --rules-base-url, with their titles.
    const md = readFileSync(path.join(dir, 'tbl', 'report.md'), 'utf8');
    expect(md).toMatch(
      /\| \[anthropic-directory\/name-length\]\(https:\/\/example\.org\/idemscan\/docs\/rules\/profiles\/anthropic-directory\/name-length\.md\) \| error \| 1 \| tool names are 64/,
    );
  });

  it("a team's own profile file: its findings, path and sha256 in the report, its rules in SARIF", async () => {
    const file = path.join(dir, 'acme.json');
    const text = JSON.stringify({
      id: 'acme',
      title: 'Acme review',
      source: ['https://wiki.acme.example/mcp'],
      requirements: [
        {
          id: 'closed-deletes',
          severity: 'error',
          title: 'no closed-world deletes',
          appliesTo: 'not-read-only',
          forbidden: [
            {
              when: { destructiveHint: true, openWorldHint: false },
              message: 'a destructive tool claims a closed world',
            },
          ],
          docs: 'https://wiki.acme.example/mcp#deletes',
        },
        {
          id: 'idempotent',
          severity: 'warning',
          title: 'writes say whether they are idempotent',
          appliesTo: 'not-read-only',
          explicitHints: ['idempotentHint'],
        },
      ],
    });
    writeFileSync(file, text);
    const run = audit(
      'pass-openai',
      '--profile',
      './acme.json',
      '--profile',
      'openai-apps',
      '--fail-on',
      'acme',
      '--format',
      'json,sarif,md',
    );
    const r = await run;
    expect(r.exitCode).toBe(1);
    const report = readReport(run.json);
    expect(profileFindings(report, 'acme/')).toEqual({
      create_invoice: ['acme/idempotent'],
      delete_invoice: ['acme/closed-deletes', 'acme/idempotent'],
    });
    const [acme, openai] = report.options.profiles!;
    expect(acme).toMatchObject({
      id: 'acme',
      path: './acme.json',
      sha256: createHash('sha256').update(text).digest('hex'),
    });
    expect(openai!.id).toBe('openai-apps');

    const sarif = JSON.parse(readFileSync(path.join(run.out, 'report.sarif'), 'utf8')) as Log;
    expect(sarifValidator()(sarif)).toBe(true);
    const rules = sarif.runs[0]!.tool.driver.rules!;
    const byId = (id: string) => rules.find((x) => x.id === id);
    expect(byId('acme/closed-deletes')).toMatchObject({
      helpUri: 'https://wiki.acme.example/mcp#deletes',
      defaultConfiguration: { level: 'error' },
    });
    // Without --rules-base-url no link, but the rule's whole page as help.
    expect(byId('openai-apps/explicit-hints')!.helpUri).toBeUndefined();
    expect(byId('openai-apps/explicit-hints')!.help!.markdown).toContain('readOnlyHint');
    expect(byId('anthropic-directory/title-required')).toBeUndefined(); // only the profiles used
    for (const res of sarif.runs[0]!.results!.filter((x) => x.ruleId!.includes('/')))
      expect(rules[res.ruleIndex!]!.id).toBe(res.ruleId);

    // Markdown: a team's rules are not linked (we have no page for them; their URL is theirs), with their titles.
    const md = readFileSync(path.join(run.out, 'report.md'), 'utf8');
    expect(md).toContain('| acme/closed-deletes | error | 1 | no closed-world deletes |');
    expect(md).toContain('| acme/idempotent | warning | 2 | writes say whether they are idempotent |');
  });

  it('a bad profile file is a usage error (exit 2) naming the file and the field, before any server starts', async () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        id: 'bad',
        title: 'Bad',
        source: [],
        requirements: [{ id: 'x', severity: 'fatal', title: 'x', explicitHints: ['readOnlyHint'] }],
      }),
    );
    const log = path.join(dir, 'spawns-bad.log');
    const r = await idemscan([
      'audit',
      '--out',
      path.join(dir, 'bad'),
      '--env',
      'SET=fail',
      '--env',
      `IDEMSCAN_FIXTURE_LOG=${log}`,
      '--profile',
      file,
      '--',
      process.execPath,
      FIXTURES.profiles,
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--profile ${file}: requirements[0].severity:`);
    expect(() => readFileSync(log)).toThrow(); // no server was started
    const unknown = await idemscan(['audit', '--profile', 'apple-store', '--', process.execPath, FIXTURES.profiles]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--profile apple-store: not a builtin profile (openai-apps, anthropic-directory)');
    const gate = await idemscan([
      'audit',
      '--fail-on',
      'anthropic-directory',
      '--',
      process.execPath,
      FIXTURES.profiles,
    ]);
    expect(gate.exitCode).toBe(2);
    expect(gate.stderr).toContain('add --profile anthropic-directory');
  });
});
