/** A spool's writer is told apart from a process that took its pid since: by the start time its header records. */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { afterAll, expect, it } from 'vitest';
import { isRunning, processStart, thisWriter } from '../../src/spool/spool-writer.js';

const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
afterAll(() => child.kill('SIGKILL'));

it('a live process is the writer only when it started when the header says; a dead pid never is', async () => {
  const pid = child.pid!;
  const host = os.hostname().slice(0, 300);
  const started = processStart(pid);
  expect(started).toMatch(/^[0-9a-f-]+:\d+$/);
  expect(isRunning({ pid, host, started })).toBe(true);
  // The same pid, started at another time: a process that reused the pid of an interrupted scan.
  expect(isRunning({ pid, host, started: `${started!.split(':')[0]}:1` })).toBe(false);
  // A header of the previous version (no start time): a live pid reads as running.
  expect(isRunning({ pid, host })).toBe(true);
  expect(isRunning({ pid, host: `${host}-other`, started })).toBe(false);
  expect(thisWriter().started).toBe(processStart(process.pid));
  expect(isRunning(thisWriter())).toBe(false); // this very process is not "another scan"
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  expect(isRunning({ pid, host, started })).toBe(false);
});
