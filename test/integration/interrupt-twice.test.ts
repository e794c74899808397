/**
 * Two SIGINTs milliseconds apart (a `timeout` wrapper or a terminal forwarding one Ctrl-C twice):
 * the second only hurries the stop, the report and the table of what was scanned are still written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';
import { spawnLog, waitGone } from '../helpers/processes.js';

const TRIES = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it(`two SIGINTs 10 ms apart keep the report and the table, ${TRIES} times in ${TRIES}`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-int2-'));
  const outcomes: string[] = [];
  for (let i = 0; i < TRIES; i++) {
    const log = spawnLog();
    const env = { IDEMSCAN_FIXTURE_LOG: log.file };
    const out = path.join(dir, `out-${i}`);
    const file = path.join(dir, 'targets.json');
    // The quick server first, alone: the stubborn one starts when it is done, so its spawn in the
    // log says the quick one is in the report to be written.
    writeFileSync(
      file,
      JSON.stringify({
        servers: [
          { name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio], env },
          { name: 'stubborn', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang-stubborn' } },
        ],
      }),
    );
    const child = execa(
      process.execPath,
      [CLI, 'scan', file, '--out', out, '--concurrency', '1', '--timeout', '60000'],
      { reject: false },
    );
    const deadline = Date.now() + 30_000;
    while (!log.entries().some((e) => e.name === 'raw-hang-stubborn') && Date.now() < deadline) await sleep(20);
    await sleep(100); // its stdin open and the first request sent: the server is being waited for
    child.kill('SIGINT');
    await sleep(10);
    child.kill('SIGINT');
    const result = await child;
    let servers = '(no report)';
    try {
      const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
      servers = `${report.options.interrupted ? 'interrupted' : 'not marked'}: ${report.servers.map((s: { name: string }) => s.name).join(',')}`;
    } catch {
      // counted below
    }
    const table = /\bmodern\b/.test(result.stdout) ? 'table' : 'no table';
    outcomes.push(`exit ${result.exitCode}, ${servers}, ${table}`);
    expect(await waitGone(log.entries().map((e) => e.pid))).toEqual([]);
    rmSync(out, { recursive: true, force: true });
  }
  expect(outcomes).toEqual(Array.from({ length: TRIES }, () => 'exit 130, interrupted: modern, table'));
}, 120_000);
