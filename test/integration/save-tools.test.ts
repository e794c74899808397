/**
 * `audit --save-tools FILE` and `audit --tools` of what idemscan wrote (issue 28): the tools list
 * a real fixture server answers, saved with its serverInfo, capabilities and protocol, reads back
 * through `--tools` (nothing started) to the live audit's verdicts, findings and definition hashes,
 * capability-based verdicts (protocol-keyed) included, over stdio and HTTP; and a report.json
 * (scan or audit) is read as one of its servers, `--server` picking it among several.
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { fileURLToPath } from 'node:url';
import { FIXTURES, startHttpFixture, type HttpFixture } from '../fixtures/index.js';
import { runAction } from '../helpers/action-runner.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-save-tools-'));
const run = (args: string[], env?: Record<string, string | undefined>) => idemscan(args, { cwd: dir, env });
const readReport = (out: string) => Report.parse(JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8')));
const readSaved = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
const fast = ['--probe-timeout', '500', '-q'];

/** What must not depend on whether the server answered now or its saved answer was read. */
const essence = (s: ServerReport) => ({
  name: s.name,
  serverInfo: s.serverInfo,
  capabilities: s.capabilities,
  idempotencyCapability: s.idempotencyCapability,
  tools: s.tools.map((t) => ({
    name: t.name,
    verdict: t.verdict,
    definitionHash: t.definitionHash,
    fieldHashes: t.fieldHashes,
    keys: t.keyArguments,
    findings: t.findings,
  })),
  findings: s.findings,
});
/** A report read back keeps no input schema or listing: its tools' judgements are what must match. */
const judged = (s: ServerReport) => ({
  name: s.name,
  serverInfo: s.serverInfo,
  capabilities: s.capabilities,
  tools: s.tools.map((t) => ({ name: t.name, verdict: t.verdict, keys: t.keyArguments, findings: t.findings })),
  // Server rules are judged again; the listing's own findings (malformed entries) are of the listing.
  findings: s.findings.filter((f) => f.rule !== 'malformed-tool-entry'),
});

/** A live audit with --save-tools, then --tools of the file with no PATH (nothing could start). */
async function roundTrip(name: string, target: string[], env?: Record<string, string>) {
  const live = await run(['audit', ...fast, '--save-tools', `${name}.json`, '--out', `${name}-live`, ...target], env);
  expect(live.exitCode, live.stderr).toBe(0);
  const back = await run(['audit', '--tools', `${name}.json`, '-q', '--out', `${name}-saved`], { PATH: '' });
  expect(back.exitCode, back.stderr).toBe(0);
  return { live: readReport(`${name}-live`), saved: readReport(`${name}-saved`), file: readSaved(`${name}.json`) };
}

const servers: HttpFixture[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('audit --save-tools, read back by --tools', () => {
  it('gives the live audit back: verdicts, findings, definition hashes, malformed entries (stdio)', async () => {
    const { live, saved, file } = await roundTrip('findings', [
      '--env',
      'SET=findings',
      '--',
      process.execPath,
      FIXTURES.rules,
    ]);
    expect(essence(saved.servers[0]!)).toEqual(essence(live.servers[0]!));
    expect(saved.summary).toEqual(live.summary);
    expect(live.servers[0]!.findings.map((f) => f.rule)).toContain('malformed-tool-entry');
    expect(saved.servers[0]!.target.transport).toBe('static');
    // The file: what the server answered, in the order --tools reads it, with the protocol negotiated.
    expect(Object.keys(file)).toEqual(['savedBy', 'protocol', 'serverInfo', 'capabilities', 'tools']);
    expect(file.protocol).toEqual({ era: live.servers[0]!.protocol!.era, version: live.servers[0]!.protocol!.version });
    expect(file.serverInfo).toEqual({ name: 'rules-findings', version: '1.0.0' });
  });

  it('keeps capability-based verdicts: a server advertising tools.idempotency stays protocol-keyed', async () => {
    const { live, saved, file } = await roundTrip('server', [
      '--env',
      'SET=server',
      '--',
      process.execPath,
      FIXTURES.rules,
    ]);
    expect(live.servers[0]!.tools.map((t) => t.verdict)).toEqual([
      'protocol-keyed',
      'protocol-keyed',
      'protocol-keyed',
    ]);
    expect(essence(saved.servers[0]!)).toEqual(essence(live.servers[0]!));
    expect((file.capabilities as { tools: unknown }).tools).toEqual({ listChanged: false, idempotency: {} });
  });

  it('keeps each definition as sent: an outputSchema and a description past the 4,000 characters the report keeps', async () => {
    const { live, saved, file } = await roundTrip('drift', [
      '--env',
      'VERSION=1',
      '--env',
      'TAIL=end',
      '--',
      process.execPath,
      FIXTURES.drift,
    ]);
    const sent = (file.tools as Record<string, unknown>[]).find((t) => t.name === 'list_invoices')!;
    expect(sent.outputSchema).toBeDefined();
    expect(String(sent.description).endsWith('end')).toBe(true);
    expect(essence(saved.servers[0]!)).toEqual(essence(live.servers[0]!));
  });

  it('saves a modern server over Streamable HTTP (the URL form) with its era', async () => {
    const server = await startHttpFixture({ MODE: 'modern' });
    servers.push(server);
    const { live, saved, file } = await roundTrip('http', ['--name', 'payments', server.url]);
    expect(live.servers[0]!.protocol!.era).toBe('modern');
    expect((file.protocol as { era: string }).era).toBe('modern');
    expect(essence({ ...saved.servers[0]!, name: 'payments' })).toEqual(essence(live.servers[0]!));
    expect(live.servers[0]!.tools.length).toBeGreaterThan(0);
  });

  it("the Action's tools: input reads the file back to the live audit's verdicts and findings", async () => {
    // After the first test wrote findings.json: the Action's run step, as a runner runs it, on a copy in its workspace.
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'idemscan-save-tools-action-'));
    writeFileSync(path.join(workspace, 'tools.json'), readFileSync(path.join(dir, 'findings.json')));
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const r = await runAction(root, {
      inputs: { tools: 'tools.json', sarif: 'false' },
      workspace,
      usesOutputs: { cache: { 'cache-hit': 'true' } },
    });
    expect(r.outputs['exit-code']).toBe('1'); // the fixture's findings match the default fail-on: error
    const action = Report.parse(JSON.parse(readFileSync(r.outputs['report-file']!, 'utf8')));
    expect(essence(action.servers[0]!)).toEqual(essence(readReport('findings-live').servers[0]!));
  });

  it('writes no secret of the launch that the server echoes back, and says when the list was not whole', async () => {
    const secret = 'ApiR5t2Wq9XcNmL';
    const r = await run([
      'audit',
      ...fast,
      '--save-tools',
      'echo.json',
      '--out',
      'echo',
      '--env',
      `API_KEY=${secret}`,
      '--',
      process.execPath,
      FIXTURES.hostileEcho,
      `--token=${secret}`,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const text = readFileSync(path.join(dir, 'echo.json'), 'utf8');
    expect(text).toContain('[REDACTED]');
    for (const part of [secret.slice(0, 8), secret.slice(-8)]) expect(text).not.toContain(part);
    // The echo server fails on page 2: the file holds page 1, and a reader is told.
    expect(r.stderr).toContain('--save-tools: the list as read was not whole (tool-list-incomplete)');
    // Its annotations and capabilities nest 120 and 150 deep: cut where --tools could not read them, and said.
    expect(r.stderr).toMatch(/--save-tools: \d+ values nested deeper than --tools reads \(64 levels\)/);
    const back = await run(['audit', '--tools', 'echo.json', '-q', '--out', 'echo-saved'], { PATH: '' });
    expect(back.exitCode, back.stderr).toBe(0);
    // Verdicts only: the live report redacted key paths made from the secret, the file the secret itself.
    const verdicts = (out: string) => readReport(out).servers[0]!.tools.map((t) => t.verdict);
    expect(verdicts('echo-saved')).toEqual(verdicts('echo'));
  });

  it('writes atomically: a symlink planted at FILE is replaced, not followed', async () => {
    writeFileSync(path.join(dir, 'victim.txt'), 'keep');
    symlinkSync(path.join(dir, 'victim.txt'), path.join(dir, 'planted.json'));
    const r = await run([
      'audit',
      ...fast,
      '--save-tools',
      'planted.json',
      '--out',
      'planted',
      '--',
      process.execPath,
      FIXTURES.rules,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'victim.txt'), 'utf8')).toBe('keep');
    expect(lstatSync(path.join(dir, 'planted.json')).isSymbolicLink()).toBe(false);
  });

  it('a server that fails writes no file (exit 3); with --tools it is a usage error (exit 2)', async () => {
    const r = await run([
      'audit',
      ...fast,
      '--save-tools',
      'none.json',
      '--out',
      'none',
      '--',
      process.execPath,
      '-e',
      'process.exit(1)',
    ]);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/--save-tools: none\.json not written: the server failed \(exited\)/);
    expect(existsSync(path.join(dir, 'none.json'))).toBe(false);
    const both = await run(['audit', '--tools', 'findings.json', '--save-tools', 'again.json']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--save-tools writes what a live server answers');
  });
});

describe('audit --tools of a report idemscan wrote', () => {
  it("an audit's report.json gives its verdicts, key arguments and findings back", async () => {
    for (const name of ['findings', 'server']) {
      const r = await run(['audit', '--tools', `${name}-live/report.json`, '-q', '--out', `${name}-report`], {
        PATH: '',
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const back = readReport(`${name}-report`).servers[0]!;
      expect(judged(back)).toEqual(judged(readReport(`${name}-live`).servers[0]!));
      expect(back.target).toEqual({ transport: 'static', source: `${name}-live/report.json` });
    }
  });

  it('a report larger than any tools list (16 MiB) is still read, as a report', async () => {
    const doc = JSON.parse(readFileSync(path.join(dir, 'server-live/report.json'), 'utf8')) as Record<string, unknown>;
    // An unknown top-level key: the schema drops it, and the file is past the bound of a tools list.
    writeFileSync(path.join(dir, 'large.json'), JSON.stringify({ ...doc, padding: 'x'.repeat(17 * 1024 * 1024) }));
    const r = await run(['audit', '--tools', 'large.json', '-q', '--out', 'large'], { PATH: '' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(judged(readReport('large').servers[0]!)).toEqual(judged(readReport('server-live').servers[0]!));
    // A file that large that is no report keeps the tools list's own error.
    writeFileSync(
      path.join(dir, 'large-list.json'),
      JSON.stringify({ tools: [], padding: 'x'.repeat(17 * 1024 * 1024) }),
    );
    const big = await run(['audit', '--tools', 'large-list.json', '-q', '--out', 'x']);
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toMatch(/--tools large-list\.json: .*larger/);
  });

  it('of a scan with several servers, --server picks one; without it, or for a failed one, a usage error says why', async () => {
    const list = {
      servers: [
        { name: 'rules', command: process.execPath, args: [FIXTURES.rules], env: { SET: 'findings' } },
        { name: 'down', command: process.execPath, args: ['-e', 'process.exit(1)'] },
      ],
    };
    writeFileSync(path.join(dir, 'two.json'), JSON.stringify(list));
    expect((await run(['scan', 'two.json', ...fast, '--out', 'two'])).exitCode).toBe(0);
    const none = await run(['audit', '--tools', 'two/report.json', '-q', '--out', 'x']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('it has 2 servers: pick one with --server NAME ("rules", "down")');
    const picked = await run(['audit', '--tools', 'two/report.json', '--server', 'rules', '-q', '--out', 'picked']);
    expect(picked.exitCode, picked.stderr).toBe(0);
    expect(judged(readReport('picked').servers[0]!)).toEqual(judged(readReport('two').servers[0]!));
    const failed = await run(['audit', '--tools', 'two/report.json', '--server', 'down', '-q', '--out', 'x']);
    expect(failed.exitCode).toBe(2);
    expect(failed.stderr).toMatch(/server "down" failed in this report \(exited: .*\): it has no tools list to audit/);
    const missing = await run(['audit', '--tools', 'two/report.json', '--server', 'nope', '-q', '--out', 'x']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('it has no server "nope" ("rules", "down")');
    const notReport = await run(['audit', '--tools', 'findings.json', '--server', 'rules', '-q', '--out', 'x']);
    expect(notReport.exitCode).toBe(2);
    expect(notReport.stderr).toContain('--server picks a server of a report idemscan wrote');
  });
});
