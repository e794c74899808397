/**
 * `idemscan probe`'s reissue-refused outcome (docs/PROBE.md) against the effect-counting fixtures
 * (servers/_effects.mjs: move_file refuses a re-issue with isError, move_file_rpc with a JSON-RPC
 * error), both eras, over stdio and HTTP, through the built CLI; and how every output shows it.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, startHttpFixture, type HttpFixture } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { Report } from '../../src/model/schema.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-probe-refused-'));
const PLAN = path.join(dir, 'moves.json');
writeFileSync(
  PLAN,
  JSON.stringify({
    tools: {
      move_file: { arguments: { source: 'a.txt', destination: 'a2.txt' }, observe: { tool: 'list_files' } },
      move_file_rpc: { arguments: { source: 'b.txt', destination: 'b2.txt' }, observe: { tool: 'list_files' } },
    },
  }),
);
const servers: HttpFixture[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

let n = 0;
async function probe(where: { kind: 'stdio' | 'http'; era: string }, extra: string[] = []) {
  const id = ++n;
  const effects = path.join(dir, `effects-${id}.json`);
  const json = path.join(dir, `report-${id}.json`);
  const env = { ERA: where.era, EFFECTS_FILE: effects };
  let target = ['--', process.execPath, FIXTURES.probeStdio];
  if (where.kind === 'http') {
    const server = await startHttpFixture(env, FIXTURES.probeHttp);
    servers.push(server);
    target = [server.url];
  } else extra = [...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]), ...extra];
  const run = await idemscan(['probe', '--plan', PLAN, '--json', json, '--out', dir, ...extra, ...target]);
  const report = existsSync(json) ? Report.parse(JSON.parse(readFileSync(json, 'utf8'))) : undefined;
  return { run, report, effects: JSON.parse(readFileSync(effects, 'utf8')) as Record<string, number> };
}

describe.each([
  { kind: 'stdio' as const, era: 'legacy' },
  { kind: 'stdio' as const, era: 'modern' },
  { kind: 'http' as const, era: 'legacy' },
  { kind: 'http' as const, era: 'modern' },
])('reissue-refused over $kind, $era era', (where) => {
  it('an effect done once whose re-issue is refused, as isError and as a JSON-RPC error', async () => {
    const { run, report, effects } = await probe(where, ['--format', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(effects.moves).toBe(2); // once per tool: the re-issues were refused
    const probeOf = (name: string) => report!.servers[0]!.tools.find((t) => t.name === name)!.probe!;
    for (const [tool, status] of [
      ['move_file', 'tool-error'],
      ['move_file_rpc', 'error'],
    ] as const) {
      const p = probeOf(tool);
      expect(p.outcome, p.evidence.reason).toBe('reissue-refused');
      expect(p.evidence.calls.map((c) => [c.step, c.status])).toEqual([
        ['observe-before', 'ok'],
        ['call', 'ok'],
        ['observe-after-call', 'ok'],
        ['reissue', status],
        ['observe-after-reissue', 'ok'],
      ]);
      expect(p.evidence.reason).toContain('Destination already exists');
    }
    expect(probeOf('list_files').evidence.reason).toBe('not in the plan itself: called 6 times as an observer');
    expect(report!.summary.probe).toMatchObject({ reissueRefused: 2, failed: 0, observers: 1, observerCalls: 6 });
  });
});

describe('reissue-refused in every output', () => {
  it('the opening line, the terminal, Markdown, HTML, SARIF (a warning) and --fail-on', async () => {
    const { run } = await probe({ kind: 'stdio', era: 'legacy' }, [
      '--format',
      'json,md,html,sarif',
      '--fail-on',
      'reissue-refused',
    ]);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toContain('--fail-on matched: move_file (reissue-refused), move_file_rpc (reissue-refused)');
    // The server as given (not "node"), and no conflictArguments the plan does not have.
    expect(run.stderr).toContain(`will call move_file, move_file_rpc on ${process.execPath} ${FIXTURES.probeStdio},`);
    expect(run.stderr).not.toContain('conflictArguments');
    // 14 not-probed: i29-plans' read_file and write_file are listed too.
    expect(run.stdout).toContain('Probe: 2 reissue-refused, 14 not-probed; 1 observer (6 calls)');
    expect(run.stdout).toMatch(/~ move_file_rpc: reissue-refused \(no key; 5 requests, \d+ ms\)/);
    expect(run.stdout).toContain('· list_files: observer, called 6 times');
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('| move\\_file | ~ reissue-refused | - | - | 5 |');
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain(
      '<td>move_file</td><td>~ reissue-refused</td>',
    );
    const sarif = JSON.parse(readFileSync(path.join(dir, 'report.sarif'), 'utf8'));
    const results = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId.startsWith('probe-'));
    expect(results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level])).toEqual([
      ['probe-reissue-refused', 'warning'],
      ['probe-reissue-refused', 'warning'],
    ]);
    const rule = sarif.runs[0].tool.driver.rules[results[0].ruleIndex];
    expect(rule.id).toBe('probe-reissue-refused');
    expect(rule.shortDescription.text).toContain('the client is told a done call failed');
  });
});
