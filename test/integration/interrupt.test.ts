/** Ctrl-C: every server process ends, what was scanned is kept, exit code 130. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';
import { spawnLog, waitGone } from '../helpers/processes.js';

it('SIGINT ends the servers, writes the servers already scanned, and exits 130', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-int-'));
  const log = spawnLog();
  const env = { IDEMSCAN_FIXTURE_LOG: log.file };
  const file = path.join(dir, 'targets.json');
  writeFileSync(file, JSON.stringify({ servers: [
    { name: 'hang', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
    { name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio], env },
    { name: 'orphan', command: 'sh', args: [FIXTURES.shOrphan], env },
    { name: 'hang-2', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
  ] }));
  const child = execa(process.execPath, [CLI, 'scan', file, '--out', dir, '--concurrency', '3', '--timeout', '60000'], { reject: false });
  // Wait until the quick servers are done and the hanging ones are still running.
  const deadline = Date.now() + 15_000;
  while (log.entries().filter((e) => e.name.startsWith('raw-orphan') || e.name === 'raw-hang').length < 3 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1_000));
  child.kill('SIGINT');
  const result = await child;
  expect(result.exitCode).toBe(130);
  const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
  expect(report.options.interrupted).toBe(true);
  expect(report.servers.map((s: { name: string }) => s.name).sort()).toEqual(['modern', 'orphan']);
  expect(await waitGone(log.entries().map((e) => e.pid))).toEqual([]);
});
