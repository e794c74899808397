/**
 * What idemscan sends back to a server, and what it waits on for one, is bounded: a flood of
 * server-to-client requests gets a few replies at a time and a bounded number in all, an endless
 * answer to a notification ends at the deadline or the signal, and none of it costs the other
 * servers of the list their results. Real processes: the built CLI and hostile-answers.mjs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_REPLIES, REPLIES_IN_FLIGHT } from '../../src/connect/replies.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';
import { startHostileHttp, startListening, type RunningServer } from '../helpers/hostile-http.js';

interface Scanned {
  name: string;
  status: string;
  failure?: { kind: string; message: string };
}

let healthy: RunningServer;
const started: RunningServer[] = [];
beforeAll(async () => {
  healthy = await startHostileHttp({ MODE: 'tools' });
  started.push(healthy);
});
afterAll(() => Promise.all(started.map((s) => s.close())));

const hostile = async (env: Record<string, string>) => {
  const server = await startListening(FIXTURES.hostileAnswers, env, /^LISTENING (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m);
  started.push(server);
  return server;
};

/** The list: the hostile server (with its own deadline, when given) between two healthy ones. */
function list(url: string, timeout?: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-answers-'));
  const file = path.join(dir, 'targets.json');
  const servers = [
    { name: 'healthy-1', url: `${healthy.url}/1` },
    { name: 'hostile', url, ...(timeout ? { timeout } : {}) },
    { name: 'healthy-2', url: `${healthy.url}/2` },
  ];
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

const reportOf = (file: string): Scanned[] =>
  JSON.parse(readFileSync(path.join(path.dirname(file), 'report.json'), 'utf8')).servers;

function scan(file: string, timeoutMs: number) {
  const args = [CLI, 'scan', file, '--out', path.dirname(file), '--timeout', String(timeoutMs)];
  return execa(process.execPath, args, { reject: false, timeout: 60_000 });
}

function expectHealthyListed(servers: Scanned[]): void {
  for (const name of ['healthy-1', 'healthy-2']) expect(servers.find((s) => s.name === name)?.status).toBe('ok');
}

it.each(['ping-batch', 'ping-stream'])(
  'a flood of pings in one answer (%s) gets a few replies at a time, a bounded number in all',
  async (mode) => {
    const server = await hostile({ MODE: mode, PINGS: '20000' });
    const file = list(server.url);
    const result = await scan(file, 10_000);
    expect(result.stderr).not.toMatch(/MaxListenersExceeded|EMFILE/);
    const servers = reportOf(file);
    expectHealthyListed(servers);
    expect(servers.find((s) => s.name === 'hostile')?.status).toBe('ok');
    const replies = server.hits().filter((h) => h.startsWith('HIT reply '));
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.length).toBeLessThanOrEqual(MAX_REPLIES);
    expect(Math.max(...replies.map((h) => Number(h.split(' ')[2])))).toBeLessThanOrEqual(REPLIES_IN_FLIGHT);
  },
);

it.each(['endless-notify', 'short-notify', 'redirect-notify'])(
  'an answer to a notification that never ends (%s) ends at the deadline; the others are kept',
  async (mode) => {
    // The hostile server's own deadline is short; the healthy ones keep the default, so load cannot fail them.
    const file = list((await hostile({ MODE: mode })).url, 3_000);
    const result = await scan(file, 30_000);
    expect(result.timedOut).toBe(false);
    const servers = reportOf(file);
    expectHealthyListed(servers);
    expect(servers.find((s) => s.name === 'hostile')?.failure?.kind).toBe('timeout');
  },
);

it('Ctrl-C during an endless answer to a notification writes the report with the others', async () => {
  const server = await hostile({ MODE: 'endless-notify' });
  const file = list(server.url);
  const child = scan(file, 60_000);
  let progress = '';
  child.stderr?.on('data', (chunk: Buffer) => (progress += chunk.toString('utf8')));
  // The signal comes once the hostile server holds its notification open and both others are done.
  const ready = () =>
    server.hits().some((h) => h.startsWith('HIT notification')) &&
    /ok healthy-1\b/.test(progress) &&
    /ok healthy-2\b/.test(progress);
  const deadline = Date.now() + 30_000;
  while (!ready() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGINT');
  const result = await child;
  expect(result.exitCode).toBe(130);
  expect(result.stderr).not.toMatch(/leaving without a report/);
  const servers = reportOf(file);
  expectHealthyListed(servers);
  // A server cut short by the signal is not in the report; the others are.
  expect(servers.find((s) => s.name === 'hostile')?.status).not.toBe('ok');
});

it('a same-origin redirect loop is named a loop', async () => {
  const file = list((await hostile({ MODE: 'redirect-loop' })).url);
  await scan(file, 10_000);
  const failure = reportOf(file).find((s) => s.name === 'hostile')?.failure;
  expect(failure?.message).toMatch(/more than 5 redirects in a row, a loop/);
  expect(failure?.message).not.toMatch(/within its origin/);
});

it('replies to a stdio server that stops reading stay bounded in memory', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-unread-'));
  const file = path.join(dir, 'targets.json');
  const env = { MODE: 'stdio-unread' };
  const servers = [{ name: 'unread', command: process.execPath, args: [FIXTURES.hostileAnswers], env }];
  writeFileSync(file, JSON.stringify({ servers }));
  const child = scan(file, 8_000);
  let peakMiB = 0;
  while (child.exitCode === null && child.pid) {
    peakMiB = Math.max(peakMiB, rssMiB(child.pid));
    await new Promise((r) => setTimeout(r, 100));
  }
  await child;
  // Unbounded, every reply queued a copy of its 1 MiB id: past a gigabyte by the deadline.
  expect(peakMiB).toBeGreaterThan(0);
  expect(peakMiB).toBeLessThan(400);
  expect(reportOf(file)[0]?.failure?.kind).toBe('timeout');
});

function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
