/** connect/session.ts: open, list, call, close on one server, and every failure a value. */
import { expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { DEFAULT_CONNECT_OPTIONS } from '../../src/connect/observe.js';
import { open } from '../../src/connect/session.js';
import type { LaunchPlan } from '../../src/launch/plan.js';
import { serverEnv } from '../../src/launch/server-env.js';

const opts = { ...DEFAULT_CONNECT_OPTIONS, probeTimeoutMs: 500, timeoutMs: 8_000 };
const stdio = (file: string): Extract<LaunchPlan, { transport: 'stdio' }> => ({
  transport: 'stdio',
  command: process.execPath,
  args: [file],
  env: {},
  spawnEnv: serverEnv(),
});

it.each([
  ['modern', FIXTURES.modernStdio],
  ['legacy', FIXTURES.legacyStdio],
])('a %s server: negotiated, listed, asked once more on the same connection, closed', async (era, file) => {
  const opened = await open(stdio(file), opts);
  if (!opened.ok) throw new Error(`not opened: ${opened.observation.failure?.message}`);
  const { session } = opened;
  expect(session.server.era).toBe(era);
  const listed = await session.listTools();
  expect(listed.ok && listed.tools.length).toBeGreaterThan(0);
  const again = await session.call('tools/list', {}, { timeoutMs: 5_000 });
  expect('outcome' in again && again.outcome.ok).toBe(true);
  const obs = await session.close();
  expect(obs.failure).toBeUndefined();
  expect(obs.tools.length).toBe(listed.ok ? listed.tools.length : -1);
  // Closed: a request is a value, never a throw.
  const after = await session.call('tools/list', {}, { timeoutMs: 1_000 });
  expect('failure' in after && after.failure.kind).toBe('exited');
});

it('a command that cannot start is no session: an observation with a spawn failure', async () => {
  const opened = await open({ ...stdio(''), command: '/nonexistent/mcp-server', args: [] }, opts);
  expect(opened.ok).toBe(false);
  if (!opened.ok) expect(opened.observation.failure?.kind).toBe('spawn');
});
