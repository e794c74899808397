/** The built CLI's scan table names the unprotected tools and the command that lists them all (issue 20). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';

it('scan prints the unprotected tools under the table and `idemscan report <its report.json> --format tools`', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-unprotected-'));
  writeFileSync(
    path.join(dir, 'targets.json'),
    JSON.stringify({
      servers: [{ name: 'widgets', command: process.execPath, args: [FIXTURES.rules], env: { SET: 'findings' } }],
    }),
  );
  const r = await idemscan(['scan', 'targets.json', '--out', 'my out', '--probe-timeout', '500'], {
    cwd: dir,
    env: { COLUMNS: '100' },
  });
  expect(r.exitCode, r.stderr).toBe(0);
  const below = r.stdout.slice(r.stdout.indexOf('Unprotected tools:'));
  expect(below).toMatch(/^ {2}widgets \(\d+\): .*create_widget/m);
  // The command as it was run (node and the path of main.js), on its own line when it does not fit.
  expect(below).toMatch(/^Every tool with its verdict and evidence:[\s\S]{0,8}node /m);
  expect(below).toContain(`node ${CLI} report 'my out/report.json' --format tools`);
  const tools = await idemscan(['report', path.join(dir, 'my out', 'report.json'), '--format', 'tools'], { cwd: dir });
  expect(tools.exitCode, tools.stderr).toBe(0);
  expect(tools.stdout).toContain('create_widget');
});
