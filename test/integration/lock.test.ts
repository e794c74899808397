/**
 * Pinning tool definitions with the built CLI: `idemscan lock` on the drift fixture, then
 * `scan --baseline` of the same server (passes), of the same definitions sent in another key order
 * (passes, same hashes) and of its changed version (fails `--fail-on drift`, each change named),
 * and `diff` of the two reports.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LockFile } from '../../src/model/lock.js';
import { DiffDocument } from '../../src/model/diff.js';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-lock-'));
const fast = ['--probe-timeout', '500', '--timeout', '15000', '-q'];
function targets(file: string, env: Record<string, string>): string {
  writeFileSync(
    path.join(dir, file),
    JSON.stringify({ servers: [{ name: 'billing', command: process.execPath, args: [FIXTURES.drift], env }] }),
  );
  return file;
}
const v1 = targets('v1.json', { VERSION: '1' });
const v1reversed = targets('v1-reversed.json', { VERSION: '1', ORDER: 'reversed' });
const v2 = targets('v2.json', { VERSION: '2' });
const run = (args: string[]) => idemscan(args, { cwd: dir });
const readReport = (out: string) => Report.parse(JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8')));

describe('idemscan lock and --baseline', () => {
  let lock: LockFile;
  beforeAll(async () => {
    const r = await run(['lock', v1, '--out', 'out-lock', ...fast]);
    expect(r.exitCode, r.stderr).toBe(0);
    lock = LockFile.parse(JSON.parse(readFileSync(path.join(dir, 'idemscan.lock.json'), 'utf8')));
  });

  it('pins every tool with its hash, verdict and hints as received', () => {
    expect(lock.servers.map((s) => s.name)).toEqual(['billing']);
    const tools = Object.fromEntries(lock.servers[0]!.tools.map((t) => [t.name, t]));
    expect(Object.keys(tools).sort()).toEqual(['get_invoice', 'issue_refund', 'list_invoices']);
    expect(tools.issue_refund!.hints).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(tools.issue_refund!.verdict).toBe('keyed');
    for (const t of Object.values(tools)) expect(t.definitionHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    // outputSchema is hashed although the report does not keep it
    expect(Object.keys(tools.list_invoices!.fieldHashes!)).toContain('outputSchema');
  });

  it('passes --fail-on drift on the same server, and on the same definitions in another key order', async () => {
    const same = await run([
      'scan',
      v1,
      '--out',
      'out-same',
      ...fast,
      '--baseline',
      'idemscan.lock.json',
      '--fail-on',
      'drift',
    ]);
    expect(same.exitCode, same.stderr).toBe(0);
    const reversed = await run([
      'scan',
      v1reversed,
      '--out',
      'out-reversed',
      ...fast,
      '--baseline',
      'idemscan.lock.json',
      '--fail-on',
      'drift',
    ]);
    expect(reversed.exitCode, reversed.stderr).toBe(0);
    const a = readReport('out-same');
    const b = readReport('out-reversed');
    expect(a.drift).toMatchObject({ drifted: false, changes: [] });
    expect(b.servers[0]!.tools.map((t) => [t.name, t.definitionHash])).toEqual(
      a.servers[0]!.tools.map((t) => [t.name, t.definitionHash]),
    );
  });

  it('fails --fail-on drift on the changed server, naming each change, and puts it in report.drift', async () => {
    const r = await run([
      'scan',
      v2,
      '--out',
      'out-v2',
      ...fast,
      '--baseline',
      'idemscan.lock.json',
      '--fail-on',
      'drift',
    ]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('billing/archive_invoice: tool added (unprotected)');
    expect(r.stderr).toContain('billing/get_invoice: definition changed: description, inputSchema');
    expect(r.stderr).toContain('- Returns the invoice as JSON.');
    expect(r.stderr).toContain('+ Also emails a copy of it to the address in `cc`.');
    expect(r.stderr).toContain('billing/issue_refund: definition changed: annotations');
    expect(r.stderr).toContain('billing/issue_refund: destructiveHint weakened: false -> absent');
    expect(r.stderr).toContain('--fail-on matched:\n  drift (4 changes since ');
    const drift = readReport('out-v2').drift!;
    expect(drift.changes.map((c) => `${c.kind} ${'tool' in c ? c.tool : ''}`)).toEqual([
      'tool-added archive_invoice',
      'definition-changed get_invoice',
      'definition-changed issue_refund',
      'hint-weakened issue_refund',
    ]);
    // Without --fail-on drift the drift is reported, not fatal.
    expect((await run(['scan', v2, '--out', 'out-v2b', ...fast, '--baseline', 'idemscan.lock.json'])).exitCode).toBe(0);
  });

  it('diff of the two reports shows the definition change with its fields', async () => {
    const r = await run(['diff', 'out-same/report.json', 'out-v2/report.json', '--format', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = DiffDocument.parse(JSON.parse(r.stdout));
    const change = doc.changes.find((c) => c.kind === 'definition-changed' && c.tool === 'get_invoice');
    expect(change).toMatchObject({ fields: ['description', 'inputSchema'] });
    const text = await run(['diff', 'out-same/report.json', 'out-v2/report.json']);
    expect(text.stdout).toContain('get_invoice: definition changed: description, inputSchema');
  });

  it('usage errors before scanning: --fail-on drift without --baseline, a lock file that is not one', async () => {
    const without = await run(['scan', v1, '--out', 'out-x', ...fast, '--fail-on', 'drift']);
    expect(without.exitCode).toBe(2);
    expect(without.stderr).toContain('--fail-on drift needs --baseline');
    writeFileSync(path.join(dir, 'bad.lock.json'), JSON.stringify({ lockVersion: '1', servers: 'x' }));
    const bad = await run(['scan', v1, '--out', 'out-y', ...fast, '--baseline', 'bad.lock.json']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--baseline bad.lock.json: invalid lock file');
  });

  it('hashes the whole description and outputSchema, not what the report keeps', async () => {
    const long = (tail: string) => targets(`long-${tail}.json`, { VERSION: '1', TAIL: tail });
    const r = await run(['scan', long('a'), '--out', 'out-long', ...fast, '--baseline', 'idemscan.lock.json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('billing/list_invoices: definition changed: description, outputSchema');
    await run(['scan', long('b'), '--out', 'out-long-b', ...fast]);
    const [a, b] = [readReport('out-long'), readReport('out-long-b')];
    const tool = (rep: Report) => rep.servers[0]!.tools.find((t) => t.name === 'list_invoices')!;
    expect(tool(a).description).toBe(tool(b).description); // cut at 4,000 characters on arrival
    expect(tool(a).fieldHashes!.description).not.toBe(tool(b).fieldHashes!.description);
    expect(tool(a).fieldHashes!.outputSchema).not.toBe(tool(b).fieldHashes!.outputSchema);
  });

  it('prints the JSON Schema of the lock file', async () => {
    const r = await run(['schema', '--lock']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).properties.lockVersion).toBeDefined();
  });
});
