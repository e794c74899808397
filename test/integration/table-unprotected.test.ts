/**
 * The built CLI's scan table names the unprotected tools and the command that lists them all
 * (issue 20), answers per server what a client may do, and fits the terminal's width (issue 28).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import stringWidth from 'string-width';
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
  // Issue 28: the count says how many of them declare no hints, and the declared writes come first
  // (create_widget, which declares nothing, follows them and is under "+N more" at 100 columns).
  expect(below).toMatch(/^ {2}widgets \(9, 3 with no hints\): .*submit_order, .*\+\d+ more$/m);
  // The command as it was run (node and the path of main.js), on its own line when it does not fit.
  expect(below).toMatch(/^Every tool with its verdict and evidence:[\s\S]{0,8}node /m);
  expect(below).toContain(`node ${CLI} report 'my out/report.json' --format tools`);
  const tools = await idemscan(['report', path.join(dir, 'my out', 'report.json'), '--format', 'tools'], { cwd: dir });
  expect(tools.exitCode, tools.stderr).toBe(0);
  expect(tools.stdout).toContain('create_widget');
});

function widgetsDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-answer-'));
  writeFileSync(
    path.join(dir, 'targets.json'),
    JSON.stringify({
      servers: [{ name: 'widgets', command: process.execPath, args: [FIXTURES.rules], env: { SET: 'findings' } }],
    }),
  );
  return dir;
}

it.each([80, 60])('at COLUMNS=%i every line scan prints fits, the per-server answer included', async (columns) => {
  const dir = widgetsDir();
  const r = await idemscan(['scan', 'targets.json', '--probe-timeout', '500'], {
    cwd: dir,
    env: { COLUMNS: String(columns) },
  });
  expect(r.exitCode, r.stderr).toBe(0);
  const wide = (text: string) => text.split('\n').filter((l) => stringWidth(l) > columns);
  expect(wide(r.stdout)).toEqual([]);
  // stderr's messages too (shell/say.ts), the one that names the HTML command among them.
  expect(r.stderr).toContain('for the HTML report');
  expect(wide(r.stderr)).toEqual([]);
  // The answer block, wrapped: the server's line, then its continuation lines indented.
  const block = r.stdout.slice(r.stdout.indexOf('What a client may do with each server:'));
  expect(block).toMatch(/^ {2}widgets 1\.0\.0: retry the 3 reads; /m);
  const answer = block.split('\n\n')[0]!.replace(/\n +/g, ' ');
  expect(answer).toContain('only if you trust the server; ask before ');
  expect(answer).toMatch(/ask before [^;]*create_widget[^;]* too \(no hints declared\)/);
  // The split under the headline, and the advice after the list, wrapped like the rest.
  expect(r.stdout.replace(/\n/g, ' ')).toMatch(/Of these, 6 declare a write and 3 declare no hints at all/);
  expect(r.stdout.replace(/\n/g, ' ')).toContain('Do not let a client retry the 9 unprotected tools automatically');
});
