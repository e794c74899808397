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
  // Two at a time, the quick servers first: each hanging server starts only when a quick one has
  // finished, so two "raw-hang" spawns in the log are the marker that both quick ones are done.
  writeFileSync(
    file,
    JSON.stringify({
      servers: [
        { name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio], env },
        { name: 'orphan', command: 'sh', args: [FIXTURES.shOrphan], env },
        { name: 'hang', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
        { name: 'hang-2', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
      ],
    }),
  );
  const child = execa(process.execPath, [CLI, 'scan', file, '--out', dir, '--concurrency', '2', '--timeout', '60000'], {
    reject: false,
  });
  const hanging = () => log.entries().filter((e) => e.name === 'raw-hang').length;
  const deadline = Date.now() + 30_000;
  while (hanging() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(hanging()).toBe(2);
  child.kill('SIGINT');
  const result = await child;
  expect(result.exitCode).toBe(130);
  const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
  expect(report.options.interrupted).toBe(true);
  expect(report.servers.map((s: { name: string }) => s.name).sort()).toEqual(['modern', 'orphan']);
  expect(await waitGone(log.entries().map((e) => e.pid))).toEqual([]);
});
