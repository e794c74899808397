/**
 * `audit --tools FILE` and `scan FILE` of saved tools/list results (issue 18, item 3): the rules
 * fixture's own tools/list, saved as a server repository would commit it, classified without
 * starting anything, give the report a live audit of the same server gives (verdicts, findings,
 * hashes), with `target.transport: "static"`, and --fail-on, SARIF, profiles and --baseline work.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { savedListOf } from '../helpers/raw-list.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-static-'));
const run = (args: string[], env?: Record<string, string | undefined>) => idemscan(args, { cwd: dir, env });
const readReport = (out: string) => Report.parse(JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8')));
const write = (file: string, data: string) => (writeFileSync(path.join(dir, file), data), file);
/** What must not depend on how the list was obtained. */
const essence = (s: ServerReport) => ({
  serverInfo: s.serverInfo,
  idempotencyCapability: s.idempotencyCapability,
  tools: s.tools.map((t) => ({
    name: t.name,
    verdict: t.verdict,
    definitionHash: t.definitionHash,
    keys: t.keyArguments,
    findings: t.findings,
  })),
  findings: s.findings,
});

describe('static audit of a saved tools/list', () => {
  let saved: Awaited<ReturnType<typeof savedListOf>>;
  let live: Report;
  beforeAll(async () => {
    saved = await savedListOf(FIXTURES.rules, { SET: 'findings' });
    write('tools.json', JSON.stringify(saved, null, 2));
    const r = await run(
      ['audit', '--probe-timeout', '500', '-q', '--out', 'live', '--', process.execPath, FIXTURES.rules],
      { SET: 'findings' },
    );
    expect(r.exitCode).toBe(0);
    live = readReport('live');
  }, 60_000);

  it('classifies it as a live audit does, says the server was not contacted, and starts nothing', async () => {
    // No PATH and no node on it: nothing could be started, and nothing needs to be.
    const r = await run(['audit', '--tools', 'tools.json', '--out', 'static'], { PATH: '' });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = readReport('static');
    const [server] = report.servers;
    expect(server!.target).toEqual({ transport: 'static', source: 'tools.json' });
    expect(server!.protocol).toBeUndefined();
    expect(server!.name).toBe('rules-findings');
    expect(essence(server!)).toEqual(essence(live.servers[0]!));
    expect(report.summary).toEqual(live.summary);
    expect(r.stdout).toContain('saved tool list, not contacted');
  });

  it('--fail-on, SARIF (located at the saved file), Markdown and a profile work as for a live audit', async () => {
    const r = await run([
      'audit',
      '--tools',
      'tools.json',
      '--out',
      'gate',
      '--format',
      'json,sarif,md',
      '--fail-on',
      'error',
      '--profile',
      'openai-apps',
      '-q',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('malformed-hint (1 finding): rules-findings/bad_hint');
    const sarif = JSON.parse(readFileSync(path.join(dir, 'gate', 'report.sarif'), 'utf8'));
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'tools.json',
      uriBaseId: '%SRCROOT%',
    });
    expect(
      readReport('gate').servers[0]!.tools.some((t) => t.findings.some((f) => f.rule.startsWith('openai-apps/'))),
    ).toBe(true);
    expect(readFileSync(path.join(dir, 'gate', 'report.md'), 'utf8')).toContain('| bad\\_hint | malformed-hint |');
  });

  it('reads a bare array of tools, a JSON-RPC response, and one result per line (each a server) as scan targets', async () => {
    write('bare.json', JSON.stringify(saved.tools));
    write('response.json', JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: saved.tools } }));
    const lines = [saved, { tools: saved.tools.slice(0, 2), serverInfo: { name: 'two', version: '1' } }, { tools: [] }]
      .map((x) => JSON.stringify(x))
      .join('\n');
    write('census.jsonl', lines + '\n');
    const r = await run(['scan', 'bare.json', 'response.json', 'census.jsonl', '--out', 'many', '-q'], { PATH: '' });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = readReport('many');
    expect(report.servers.map((s) => [s.name, s.target.transport, s.target.source, s.tools.length])).toEqual([
      ['bare', 'static', 'bare.json', saved.tools.length - 1], // the fixture's malformed entry is salvaged away
      ['response', 'static', 'response.json', saved.tools.length - 1],
      ['rules-findings', 'static', 'census.jsonl#line 1', saved.tools.length - 1],
      ['two', 'static', 'census.jsonl#line 2', 2],
      ['census#3', 'static', 'census.jsonl#line 3', 0],
    ]);
    // Without serverInfo there is no capability: the same tools, the same verdicts.
    expect(report.servers[0]!.tools.map((t) => t.verdict)).toEqual(live.servers[0]!.tools.map((t) => t.verdict));
  });

  it('lock and --baseline: a committed tool list gates on drift without a backend', async () => {
    expect((await run(['lock', 'tools.json', '--lock', 'tools.lock.json', '-q', '--out', 'l'])).exitCode).toBe(0);
    expect(
      (
        await run([
          'audit',
          '--tools',
          'tools.json',
          '--baseline',
          'tools.lock.json',
          '--fail-on',
          'drift',
          '-q',
          '--out',
          'same',
        ])
      ).exitCode,
    ).toBe(0);
    const edited = structuredClone(saved) as { tools: { name?: string; description?: string }[] };
    edited.tools.find((t) => t.name === 'create_widget')!.description = 'Creates a widget, now charged.';
    write('edited.json', JSON.stringify(edited));
    const r = await run([
      'audit',
      '--tools',
      'edited.json',
      '--name',
      'rules-findings',
      '--baseline',
      'tools.lock.json',
      '--fail-on',
      'drift',
      '-q',
      '--out',
      'drift',
    ]);
    expect(r.exitCode).toBe(1);
    expect(readReport('drift').drift?.changes).toContainEqual(
      expect.objectContaining({ kind: 'definition-changed', tool: 'create_widget', fields: ['description'] }),
    );
  });

  it('usage errors: a file that is no saved result, --tools with a command too', async () => {
    write('targets.json', JSON.stringify({ servers: [{ name: 'x', command: 'true' }] }));
    const notTools = await run(['audit', '--tools', 'targets.json']);
    expect(notTools.exitCode).toBe(2);
    expect(notTools.stderr).toContain('targets.json: not a saved tools/list result (expected {"tools": [...]}');
    const both = await run(['audit', '--tools', 'tools.json', '--', 'node', 'server.js']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--tools reads a saved tools/list result: give no command or URL as well');
  });
});
