/** `idemscan report` and `scan --format html` through the built CLI. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-report-'));

function scannedReport(): Record<string, unknown> {
  return {
    schemaVersion: '1',
    tool: { name: 'idemscan', version: '0.0.0' },
    startedAt: '2026-01-02T03:04:05.000Z',
    finishedAt: '2026-01-02T03:04:06.000Z',
    options: {},
    summary: {
      servers: 1,
      serversOk: 1,
      serversFailed: 0,
      tools: 1,
      readOnly: 0,
      notReadOnly: 1,
      annotated: 0,
      protocolKeyed: 0,
      keyed: 0,
      idempotent: 0,
      unprotected: 1,
    },
    servers: [
      {
        name: 'one',
        status: 'ok',
        target: { transport: 'stdio', command: 'node' },
        idempotencyCapability: false,
        durationMs: 5,
        tools: [
          {
            name: 'send',
            effective: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
            verdict: 'unprotected',
            keyArguments: [],
            findings: [],
          },
        ],
        findings: [],
      },
    ],
  };
}

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('idemscan report FILE', () => {
  it('writes report.html beside the JSON by default, and prints formats without a file', async () => {
    const file = write('ok.json', JSON.stringify(scannedReport()));
    const r = await idemscan(['report', file, '--format', 'html,table']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^total +\d+ /m);
    expect(r.stdout).toMatch(/not read-only can be retried safely/);
    const html = readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    // None of the one write is safe: not the colour of a good figure.
    expect(html).toContain('<span class="big warn">0 <span class="of">of 1</span></span>');
  });

  it('--out puts the files elsewhere', async () => {
    const file = write('ok2.json', JSON.stringify(scannedReport()));
    const out = path.join(dir, 'elsewhere');
    const r = await idemscan(['report', file, '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
  });

  it('exit 2 for a file that is not a report, naming the file and the field', async () => {
    const bad = scannedReport();
    (bad.servers as { tools: { verdict: string }[] }[])[0]!.tools[0]!.verdict = 'maybe';
    const file = write('bad.json', JSON.stringify(bad));
    const r = await idemscan(['report', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bad.json');
    expect(r.stderr).toContain('servers[0].tools[0].verdict');
    expect(
      existsSync(path.join(dir, 'report.html')) &&
        readFileSync(path.join(dir, 'report.html'), 'utf8').includes('maybe'),
    ).toBe(false);
  });

  it('exit 2 for a report of another schemaVersion (the loader diff and merge use)', async () => {
    const file = write('v2.json', JSON.stringify({ ...scannedReport(), schemaVersion: '2' }));
    const r = await idemscan(['report', file, '--out', path.join(dir, 'v2')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('v2.json: schemaVersion "2" is not supported');
    expect(existsSync(path.join(dir, 'v2'))).toBe(false);
  });

  it('exit 2 for a missing file, a file that is not JSON, an unknown format, and overwriting the input', async () => {
    const missing = await idemscan(['report', path.join(dir, 'nope.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope.json');
    const notJson = await idemscan(['report', write('broken.json', '{"schemaVersion": ')]);
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toContain('broken.json');
    const file = write('ok3.json', JSON.stringify(scannedReport()));
    expect((await idemscan(['report', file, '--format', 'pdf'])).exitCode).toBe(2);
    const self = write('report.json', JSON.stringify(scannedReport()));
    const r = await idemscan(['report', self, '--format', 'json']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('overwrite');
  });
});

describe('scan --format html', () => {
  it('writes report.html beside report.json', async () => {
    const list = write(
      'targets.json',
      JSON.stringify({ servers: [{ name: 'legacy', command: process.execPath, args: [FIXTURES.legacyStdio] }] }),
    );
    const out = path.join(dir, 'scan-out');
    const r = await idemscan([
      'scan',
      list,
      '--out',
      out,
      '--format',
      'json,html',
      '--probe-timeout',
      '500',
      '--quiet',
    ]);
    expect(r.exitCode).toBe(0);
    expect(existsSync(path.join(out, 'report.json'))).toBe(true);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('create_payment');
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
  });
});
