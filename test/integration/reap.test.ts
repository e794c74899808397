/**
 * A listed server's pool slot is free while its process is still ending (closed in the
 * background), yet scan() returns only once every one of them is gone, on an abort too.
 */
import { expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';
import { isRunning, spawnLog } from '../helpers/processes.js';

const raw = (name: string, mode: string, log: string): TargetInput => ({
  name,
  source: 'test',
  transport: 'stdio',
  command: process.execPath,
  args: [FIXTURES.raw],
  env: { MODE: mode, IDEMSCAN_FIXTURE_LOG: log },
});

/** The host pid of the first logged `raw-<mode>`, looked up while it runs (a namespace pid resolves to 0 once gone). */
const pidOf = (log: ReturnType<typeof spawnLog>, mode: string) =>
  log.entries().find((e) => e.name === `raw-${mode}`)?.pid ?? 0;

async function waitPid(log: ReturnType<typeof spawnLog>, mode: string): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (!pidOf(log, mode) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return pidOf(log, mode);
}

it('starts the next server while a listed one is still exiting, and returns once it is gone', async () => {
  const log = spawnLog();
  let slowPid = 0;
  let aliveWhenNextStarted: boolean | undefined;
  const started = performance.now();
  const scanning = scan([raw('slow', 'slow-exit', log.file), raw('next', 'banner', log.file)], {
    concurrency: 1,
    onProgress: (e) => {
      // Looked up here too: a raw fixture can be listed before the poll below has seen its pid.
      if (e.type === 'start' && e.target === 'next')
        aliveWhenNextStarted = isRunning(slowPid || pidOf(log, 'slow-exit'));
    },
  });
  slowPid = await waitPid(log, 'slow-exit');
  const report = await scanning;
  const wall = performance.now() - started;
  expect(slowPid, log.text()).toBeGreaterThan(0);
  // Old code: the slot was held through SIGTERM and the 1.5 s the server takes to exit.
  expect(aliveWhenNextStarted).toBe(true);
  expect(isRunning(slowPid)).toBe(false);
  expect(wall).toBeGreaterThan(1400);
  expect(report.servers.map((s) => [s.name, s.status, s.tools.length])).toEqual([
    ['slow', 'ok', 2],
    ['next', 'ok', 2],
  ]);
});

it('an abort while a listed server is still exiting still waits for it', async () => {
  const log = spawnLog();
  const stop = new AbortController();
  const scanning = scan([raw('slow', 'slow-exit', log.file), raw('hang', 'hang', log.file)], {
    concurrency: 1,
    signal: stop.signal,
  });
  const slowPid = await waitPid(log, 'slow-exit');
  const hangPid = await waitPid(log, 'hang');
  // Old code: the slow server is already gone here; new code: it is still exiting in the background.
  const slowAlive = isRunning(slowPid);
  stop.abort();
  const report = await scanning;
  expect(slowPid, log.text()).toBeGreaterThan(0);
  expect(hangPid, log.text()).toBeGreaterThan(0);
  expect(slowAlive).toBe(true);
  expect([isRunning(slowPid), isRunning(hangPid)]).toEqual([false, false]);
  expect(report.options.interrupted).toBe(true);
  expect(report.servers.map((s) => s.name)).toEqual(['slow']);
});
