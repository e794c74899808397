/**
 * The GitHub Action (action.yml, issue 18 item 1), run as a runner runs it (test/helpers/action-runner.ts):
 * its bash steps with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and GITHUB_WORKSPACE, against
 * the real rules fixture server and saved tool lists. The gate's exit code fails the job after the
 * SARIF upload, the summary holds the verdicts and findings, names each tool the gate matched (or
 * the error line on exit 2 and 3), and no server text becomes a workflow command in the log or the summary.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { readAction, runAction, type ActionRun } from '../helpers/action-runner.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const workspace = mkdtempSync(path.join(os.tmpdir(), 'idemscan-action-'));
const warm = { usesOutputs: { cache: { 'cache-hit': 'true' } } };
const run = (inputs: Record<string, string>) => runAction(ROOT, { inputs, workspace, ...warm });
const step = (r: ActionRun, name: string) => r.steps.find((s) => s.name === name)!;
/** Lines a runner would take for workflow commands. */
const commandLines = (text: string) => text.split('\n').filter((l) => /^\s*::/.test(l));
/** The log's only commands are the stop-commands marker and its resume. */
function onlyMarkers(log: string): void {
  const lines = commandLines(log);
  expect(lines).toHaveLength(2);
  const token = /^::stop-commands::(idemscan-[0-9a-f]{32})$/.exec(lines[0]!)?.[1];
  expect(token, lines[0]).toBeDefined();
  expect(lines[1]).toBe(`::${token}::`);
}

describe('action.yml', () => {
  it('is a composite action whose other actions are pinned by commit SHA, and whose scripts expand no input', () => {
    const action = readAction(ROOT);
    expect(action.runs.using).toBe('composite');
    const text = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
    const uses = action.runs.steps.filter((s) => s.uses).map((s) => s.uses!);
    expect(uses.map((u) => u.split('@')[0])).toEqual([
      'actions/setup-node',
      'actions/cache',
      'github/codeql-action/upload-sarif',
    ]);
    for (const u of uses) {
      expect(u).toMatch(/@[0-9a-f]{40}$/);
      expect(text).toMatch(new RegExp(`${u.replace(/[/.]/g, '\\$&')} # v\\d+\\.\\d+\\.\\d+\\n`)); // the tag beside the SHA
    }
    for (const s of action.runs.steps.filter((x) => x.run)) expect(s.run, s.name).not.toContain('${{');
    expect(Object.keys(action.inputs).sort()).toEqual([
      'args',
      'audit',
      'baseline',
      'category',
      'fail-on',
      'profile',
      'sarif',
      'suppress',
      'targets',
      'tools',
      'url',
    ]);
    expect(action.inputs['fail-on']!.default).toBe('error');
    expect(action.inputs.sarif!.default).toBe('true');
  });

  it('audits a stdio server: outputs, summary, SARIF uploaded although the gate fails, then the job fails with exit 1', async () => {
    const r = await run({
      audit: `node ${FIXTURES.rules}`,
      args: '--env SET=findings --probe-timeout 500 --name rules',
      category: 'mcp-rules',
    });
    expect(step(r, 'Set up Node.js 20').outcome).toBe('skipped'); // Node 20 is here
    expect(step(r, 'Run idemscan').outcome).toBe('success');
    expect(r.outputs['exit-code']).toBe('1');
    const upload = step(r, 'Upload SARIF to code scanning');
    expect(upload.outcome).toBe('success');
    expect(upload.with).toEqual({ sarif_file: r.outputs['sarif-file'], category: 'mcp-rules' });
    const sarif = JSON.parse(readFileSync(r.outputs['sarif-file']!, 'utf8'));
    expect(sarif.runs[0].results.length).toBeGreaterThan(10);
    expect(Report.parse(JSON.parse(readFileSync(r.outputs['report-file']!, 'utf8'))).servers[0]!.name).toBe('rules');
    expect(step(r, "Fail with idemscan's exit code")).toMatchObject({ outcome: 'failure', exitCode: 1 });
    expect(r.failed).toBe(true);
    expect(r.summary).toMatch(/^## idemscan: failed: `--fail-on error` matched/);
    expect(r.summary).toContain('## Verdicts');
    expect(r.summary).toContain('| error | bad\\_hint | malformed-hint |');
    expect(r.log).toContain('--fail-on matched:');
    onlyMarkers(r.log);
    expect(commandLines(r.summary)).toEqual([]);
  }, 60_000);

  it('server text that tries to be a workflow command stays text, in the log and in the summary', async () => {
    const hostile = {
      serverInfo: { name: '::error file=x::pwned', version: '1\n::add-mask::v' },
      tools: [
        {
          name: '::warning::tool',
          description: 'Reads.\n::error::from description\n  ::set-output name=x::y',
          inputSchema: { type: 'object' },
        },
        {
          name: 'get_x',
          description: '%0A::error::encoded',
          inputSchema: { type: 'object' },
          annotations: { readOnlyHint: true },
        },
      ],
    };
    writeFileSync(path.join(workspace, 'hostile.json'), JSON.stringify(hostile));
    const r = await run({ tools: 'hostile.json', 'fail-on': 'warning' });
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.log).toContain('pwned'); // it is there, as text
    onlyMarkers(r.log);
    expect(commandLines(r.summary)).toEqual([]);
    expect(r.summary).toContain('pwned');
  }, 60_000);

  it('a clean saved tool list passes: exit 0, the job succeeds; sarif false writes and uploads none', async () => {
    writeFileSync(
      path.join(workspace, 'tools.json'),
      JSON.stringify({
        tools: [{ name: 'get_page', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      }),
    );
    const r = await run({ tools: 'tools.json', sarif: 'false' });
    expect(r.outputs).toMatchObject({ 'exit-code': '0', 'sarif-file': '' });
    expect(step(r, 'Upload SARIF to code scanning').outcome).toBe('skipped');
    expect(r.failed).toBe(false);
    expect(r.summary).toMatch(/^## idemscan: passed\n/);
  }, 60_000);

  it('the summary names every tool the gate matched, up to a bound, and the tools a suppression accepted', async () => {
    const tool = (name: string, annotations?: unknown) => ({ name, inputSchema: { type: 'object' }, annotations });
    const tools = [
      tool('bad_hint', { readOnlyHint: 'yes' }),
      ...Array.from({ length: 59 }, (_, i) => tool(`write_${i}`, { readOnlyHint: false })),
      tool('create_order', { readOnlyHint: false }),
    ];
    writeFileSync(path.join(workspace, 'many.json'), JSON.stringify({ serverInfo: { name: 'shop' }, tools }));
    writeFileSync(
      path.join(workspace, 'accept.json'),
      JSON.stringify([{ verdict: 'unprotected', tool: 'create_order', reason: 'deduplicated by cart id' }]),
    );
    const r = await run({ tools: 'many.json', 'fail-on': 'error,unprotected', suppress: 'accept.json' });
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.summary).toMatch(
      /^## idemscan: failed: `--fail-on error,unprotected` matched .*\n\nWhat the gate matched \(60\):\n\n/,
    );
    expect(r.summary).toContain('- shop / bad\\_hint: verdict unprotected; rule malformed-hint\n');
    const lines = r.summary.split('\n').filter((l) => l.startsWith('- shop / '));
    expect(lines).toHaveLength(50);
    expect(lines.at(-1)).toBe('- shop / write\\_48: verdict unprotected');
    expect(r.summary).toContain('- +10 more (the JSON report has every finding and verdict)\n');
    expect(r.summary).toContain('\n1 tool accepted by accept.json (a reviewed verdict, not counted).\n');
    expect(r.summary).not.toContain('create\\_order: verdict');
    expect(r.summary).toContain('## Verdicts'); // then the Markdown report, as before
    const sarif = JSON.parse(readFileSync(r.outputs['sarif-file']!, 'utf8'));
    const results = sarif.runs[0].results.filter((x: { ruleId: string }) => x.ruleId === 'verdict/unprotected');
    expect(results).toHaveLength(61);
    expect(
      results
        .filter((x: { suppressions?: unknown }) => x.suppressions)
        .map((x: { properties: { tool: string } }) => x.properties.tool),
    ).toEqual(['create_order']);
    onlyMarkers(r.log);
  }, 60_000);

  it('a summary for exit 2 carries the error line; for exit 3 why each server failed', async () => {
    const missing = await run({ tools: 'no-such-tools.json' });
    expect(missing.outputs['exit-code']).toBe('2');
    expect(missing.summary).toBe(
      '## idemscan: could not check (exit 2)\n\n> idemscan: --tools no-such-tools.json: cannot read: no such file (ENOENT)\n\n',
    );
    expect(missing.log).toContain('idemscan: --tools no-such-tools.json: cannot read'); // still in the log too
    const usage = await run({ tools: 'tools.json', args: '--bogus' });
    expect(usage.summary).toContain("\n> error: unknown option '--bogus'\n");
    const dead = await run({ audit: path.join(workspace, 'no-such-server') });
    expect(dead.outputs['exit-code']).toBe('3');
    expect(dead.summary).toMatch(
      /^## idemscan: failed: every target failed to be scanned\n\n- no-such-server: spawn: cannot start .*ENOENT\n/,
    );
    onlyMarkers(dead.log);
  }, 60_000);

  it('could not check (no target given): exit 2, not 1, and no upload', async () => {
    const r = await run({});
    expect(r.outputs['exit-code']).toBe('2');
    expect(step(r, 'Upload SARIF to code scanning').outcome).toBe('skipped');
    expect(step(r, "Fail with idemscan's exit code")).toMatchObject({ outcome: 'failure', exitCode: 2 });
    expect(r.summary).toContain('Not run: give exactly one of the inputs');
  }, 60_000);
});
