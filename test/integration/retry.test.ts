/**
 * docs/RETRY.md end to end, the seed experiment of modelcontextprotocol #3394: a real server with
 * counted effects behind a relay that drops one answer. With retryDecision applied (the example
 * itself, run as a user runs it) the effect happens once; the naive retry (a fresh key, or none)
 * makes it happen twice: the baseline and the positive control.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, SdkError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-retry-'));
const EXAMPLE = fileURLToPath(new URL('../../docs/examples/retry/lost-response.ts', import.meta.url));
const RELAY = fileURLToPath(new URL('../fixtures/servers/drop-relay.mjs', import.meta.url));
let n = 0;

function envFor(extra: Record<string, string> = {}) {
  const id = ++n;
  const effects = path.join(dir, `effects-${id}.json`);
  const dropped = path.join(dir, `dropped-${id}.log`);
  return {
    env: { EFFECTS_FILE: effects, DROPPED_LOG: dropped, ...extra },
    effects: () => JSON.parse(readFileSync(effects, 'utf8')),
    dropped: () => (existsSync(dropped) ? readFileSync(dropped, 'utf8').trim().split('\n').length : 0),
  };
}

async function withDecision(tool: string, args: unknown, extra?: Record<string, string>) {
  const run = envFor(extra);
  const out = await execa(
    process.execPath,
    [
      '--import',
      'tsx',
      EXAMPLE,
      tool,
      JSON.stringify(args),
      '--',
      process.execPath,
      RELAY,
      process.execPath,
      FIXTURES.probeStdio,
    ],
    {
      env: run.env,
      reject: false,
      timeout: 30_000,
    },
  );
  expect(out.exitCode, out.stderr).toBe(0);
  return { stdout: out.stdout, effects: run.effects(), dropped: run.dropped() };
}

/** What a client without retryDecision does: time out, re-issue, with a fresh key if the tool takes one. */
async function naive(
  tool: string,
  args: Record<string, unknown>,
  key: 'argument' | 'params' | 'none',
  extra?: Record<string, string>,
) {
  const run = envFor(extra);
  const client = new Client({ name: 'naive', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [RELAY, process.execPath, FIXTURES.probeStdio],
      env: { ...(process.env as Record<string, string>), ...run.env },
    }),
  );
  const params = () => ({
    name: tool,
    arguments: key === 'argument' ? { ...args, idempotency_key: randomUUID() } : args,
    ...(key === 'params' ? { idempotencyKey: randomUUID() } : {}),
  });
  await expect(client.callTool(params(), { timeout: 1_000 })).rejects.toBeInstanceOf(SdkError);
  await client.callTool(params(), { timeout: 5_000 });
  await client.close();
  return { effects: run.effects(), dropped: run.dropped() };
}

describe('a lost answer, with and without retryDecision', () => {
  it('a keyed tool: re-issued with the same key, 1 order; the naive retry, 2', async () => {
    const decided = await withDecision('create_order', { item: 'book' });
    expect(decided.dropped).toBe(1);
    expect(decided.stdout).toContain('order 1 for book');
    expect(decided.effects.orders).toBe(1);
    const control = await naive('create_order', { item: 'book' }, 'argument');
    expect(control.dropped).toBe(1);
    expect(control.effects.orders).toBe(2);
  });

  it('params.idempotencyKey (tools.idempotency read off the wire): 1 charge; the naive retry, 2', async () => {
    const decided = await withDecision('charge_card', { amount: 1 }, { PROTOCOL_KEYS: '1' });
    expect(decided.stdout).toContain('charge 1 of 1');
    expect(decided.effects.charges).toBe(1);
    const control = await naive('charge_card', { amount: 1 }, 'params', { PROTOCOL_KEYS: '1' });
    expect(control.effects.charges).toBe(2);
  });

  it('an unprotected tool: "outcome unknown" and 1 message; the naive retry, 2', async () => {
    const decided = await withDecision('send_sms', { to: 'x', body: 'y' });
    expect(decided.stdout).toContain('outcome unknown: send_sms');
    expect(decided.effects.sms).toBe(1);
    const control = await naive('send_sms', { to: 'x', body: 'y' }, 'none');
    expect(control.effects.sms).toBe(2);
  });
});

describe('the example as a module and as a demo', () => {
  it('importing the helpers (call-tool.ts) runs nothing: no server started, no output', async () => {
    const helpers = EXAMPLE.replace('lost-response.ts', 'call-tool.ts');
    const r = await execa(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(helpers)}); console.log(Object.keys(m).sort().join(','));`,
      ],
      { reject: false, timeout: 20_000 },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('OutcomeUnknown,callTool,rawCapabilities');
    expect(r.stderr).toBe('');
  });

  it('the demo without arguments fails at once with its usage line (exit 2), starting nothing', async () => {
    const started = Date.now();
    const r = await execa(process.execPath, ['--import', 'tsx', EXAMPLE], { reject: false, timeout: 20_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^usage: lost-response\.ts TOOL ARGS_JSON -- COMMAND/);
    expect(r.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
