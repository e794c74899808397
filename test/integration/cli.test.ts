/** The built CLI: exit codes, outputs, terminal safety. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES, startHttpFixture } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-cli-'));
function list(name: string, servers: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}
const rawEntry = (name: string, mode: string) => ({
  name,
  command: process.execPath,
  args: [FIXTURES.raw],
  env: { MODE: mode },
});
const fast = ['--probe-timeout', '500', '--timeout', '3000'];

describe('exit codes', () => {
  it('0 when the scan ran, with report.json under --out and the table on stdout', async () => {
    const out = path.join(dir, 'out0');
    const file = list('ok.json', [
      { name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio] },
      rawEntry('crash', 'crash'),
    ]);
    const r = await idemscan(['scan', file, '--out', out, ...fast]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^total +8 .* 1 failed$/m);
    const report = Report.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    expect(report.summary).toMatchObject({ servers: 2, serversOk: 1, serversFailed: 1, tools: 8 });
  });

  it('3 when every target failed', async () => {
    const r = await idemscan([
      'scan',
      list('bad.json', [rawEntry('crash', 'crash')]),
      '--out',
      path.join(dir, 'o3'),
      ...fast,
    ]);
    expect(r.exitCode).toBe(3);
  });

  it('2 for a target file that is not JSON, naming the file', async () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{ "servers": [');
    const r = await idemscan(['scan', file, '--out', path.join(dir, 'o2')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('broken.json');
  });

  it('2 for a missing file and for bad flags', async () => {
    expect((await idemscan(['scan', path.join(dir, 'nope.json')])).exitCode).toBe(2);
    expect((await idemscan(['scan', '--concurrency', 'many'])).exitCode).toBe(2);
    expect((await idemscan(['frobnicate'])).exitCode).toBe(2);
  });

  it('a bad entry is reported with file and field, and the rest are scanned', async () => {
    const file = list('mixed.json', [
      { name: 'broken', url: 'nope' },
      { name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio] },
    ]);
    const r = await idemscan(['scan', file, '--json', '-', ...fast]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/skipped broken .*mixed\.json.*servers\[0\]\.url/);
    const report = Report.parse(JSON.parse(r.stdout));
    expect(report.servers.map((s) => s.name)).toEqual(['modern']);
    expect(report.skipped?.[0]?.name).toBe('broken');
  });
});

describe('audit', () => {
  it('scans one command after -- and lists every tool with its verdict', async () => {
    const r = await idemscan(['audit', '--out', path.join(dir, 'oa'), '--', process.execPath, FIXTURES.legacyStdio]);
    expect(r.exitCode).toBe(0);
    for (const tool of ['get_balance', 'create_payment', 'send_email']) expect(r.stdout).toContain(tool);
    expect(r.stdout).toContain('$.idempotency_key (strong)');
  });

  it('scans one HTTP server given as a URL, with --header', async () => {
    const f = await startHttpFixture({ MODE: 'legacy', BEARER: 'cli-token-1234567' });
    try {
      const ok = await idemscan([
        'audit',
        f.url,
        '--header',
        'Authorization: Bearer cli-token-1234567',
        '--json',
        '-',
        '--out',
        path.join(dir, 'oh'),
      ]);
      expect(ok.exitCode, ok.stderr).toBe(0);
      const report = Report.parse(JSON.parse(ok.stdout));
      expect(report.servers[0]).toMatchObject({
        status: 'ok',
        target: { transport: 'http', headers: ['Authorization'] },
      });
      expect(ok.stdout + ok.stderr).not.toContain('cli-token-1234567');
      const denied = await idemscan(['audit', f.url, '--out', path.join(dir, 'oh2')]);
      expect(denied.exitCode).toBe(3);
      expect(denied.stdout).toMatch(/failed: auth/);
    } finally {
      await f.close();
    }
  });

  it('prints no control character that came from a server', async () => {
    const r = await idemscan([
      'audit',
      '--out',
      path.join(dir, 'ob'),
      '--env',
      'MODE=huge-description',
      '--',
      process.execPath,
      FIXTURES.raw,
    ]);
    expect(r.exitCode).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.stdout).toContain('evil\\u001b[31mred\\u000dname');
  });
});

describe('schema', () => {
  it('prints the JSON Schema of the report', async () => {
    const r = await idemscan(['schema']);
    const schema = JSON.parse(r.stdout);
    expect(schema.properties.summary.required).toContain('unprotected');
    expect(schema.properties.servers.items.properties.tools.items.properties.verdict.enum).toContain('protocol-keyed');
  });
});
