/**
 * What a new user's first scan prints after the table: every file written, how to get the HTML
 * report when only JSON was written, and what to do about the unprotected tools.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-first-'));
writeFileSync(
  path.join(dir, 't.json'),
  JSON.stringify({ servers: [{ name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio] }] }),
);
const ADVICE =
  'Do not let a client retry the 4 unprotected tools automatically: ask the user first, and prefer keyed tools, sending the same key on a retry.';

describe('after the first scan', () => {
  it('names the JSON written and the command that makes the HTML from it, and says what to do about unprotected tools', async () => {
    const r = await idemscan(['scan', 't.json', '--timeout', '15000'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('idemscan: wrote output/report.json\n');
    expect(r.stderr).toContain(
      // Run as `node CLI` from elsewhere: the hint names that command (test/integration/invocation.test.ts).
      `idemscan: for the HTML report to open in a browser: node ${CLI} report output/report.json --format html (or scan with --format json,html)`,
    );
    expect(r.stdout).toContain(ADVICE);
  });

  it('with --format json,html: both files named, no hint; -q prints neither', async () => {
    const r = await idemscan(['scan', 't.json', '--timeout', '15000', '--format', 'json,html', '--out', 'both'], {
      cwd: dir,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('idemscan: wrote both/report.json\nidemscan: wrote both/report.html');
    expect(r.stderr).not.toContain('for the HTML report');
    const q = await idemscan(['audit', '-q', '--out', 'q', '--', process.execPath, FIXTURES.modernStdio], { cwd: dir });
    expect(q.exitCode, q.stderr).toBe(0);
    expect(q.stderr + q.stdout).toBe('');
  });
});
