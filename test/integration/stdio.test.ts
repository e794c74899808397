/** Real fixture servers as real processes over stdio: both eras, and the broken ones. */
import { afterAll, describe, expect, it } from 'vitest';
import { scan, scanTuned } from '../../src/app/scan/scan.js';
import type { InternalScanOptions } from '../../src/app/scan/scan-options.js';
import type { TargetInput } from '../../src/targets/types.js';
import type { ServerReport } from '../../src/model/schema.js';
import { FIXTURES, PAYMENTS_KEYS, PAYMENTS_VERDICTS } from '../fixtures/index.js';
import { spawnLog, waitGone } from '../helpers/processes.js';

const log = spawnLog();
const node = (name: string, file: string, env: Record<string, string> = {}): TargetInput => ({
  name,
  source: 'test',
  transport: 'stdio',
  command: process.execPath,
  args: [file],
  env: { IDEMSCAN_FIXTURE_LOG: log.file, ...env },
});
const raw = (mode: string) => node(mode, FIXTURES.raw, { MODE: mode });
const fast = { probeTimeoutMs: 500, timeoutMs: 8_000, concurrency: 4 };

async function scanOne(target: TargetInput, opts: InternalScanOptions = fast): Promise<ServerReport> {
  const report = await scanTuned([target], opts);
  return report.servers[0]!;
}

afterAll(async () => {
  expect(await waitGone(log.entries().map((e) => e.pid))).toEqual([]);
});

describe('both protocol eras', () => {
  it.each([
    ['modern', FIXTURES.modernStdio, 'modern', '2026-07-28'],
    ['legacy', FIXTURES.legacyStdio, 'legacy', '2025-11-25'],
    ['dual', FIXTURES.dualStdio, 'modern', '2026-07-28'],
  ])(
    '%s server: every verdict and key argument, started once, nothing left running',
    async (name, file, era, version) => {
      const before = log.entries().length;
      const s = await scanOne(node(name, file));
      expect(s.status).toBe('ok');
      expect(s.protocol).toMatchObject({ era, version });
      expect(Object.fromEntries(s.tools.map((t) => [t.name, t.verdict]))).toEqual(PAYMENTS_VERDICTS);
      for (const t of s.tools) {
        expect(t.keyArguments.map(({ name, path, confidence }) => ({ name, path, confidence }))).toEqual(
          PAYMENTS_KEYS[t.name] ?? [],
        );
      }
      const spawned = log.entries().slice(before);
      expect(spawned).toHaveLength(1);
      expect(await waitGone(spawned.map((e) => e.pid))).toEqual([]);
    },
  );
});

describe('what the SDK would strip or reject', () => {
  it('keeps capabilities.tools.idempotency, unknown annotation keys and unknown tool fields', async () => {
    const s = await scanOne(raw('idempotency-cap'));
    expect(s.idempotencyCapability).toBe(true);
    expect((s.capabilities as { tools: Record<string, unknown> }).tools.idempotency).toEqual({});
    expect(Object.fromEntries(s.tools.map((t) => [t.name, t.verdict]))).toEqual({
      charge_card: 'protocol-keyed',
      get_charge: 'read-only',
    });
    expect(s.tools.some((t) => t.annotations && 'x-retry' in t.annotations)).toBe(true);
  });

  it('a modern server advertising tools.idempotency is protocol-keyed', async () => {
    const s = await scanOne(raw('modern-idempotency-cap'));
    expect(s.protocol?.era).toBe('modern');
    expect(s.idempotencyCapability).toBe(true);
    expect(s.tools.filter((t) => t.verdict !== 'read-only').every((t) => t.verdict === 'protocol-keyed')).toBe(true);
  });

  it('one malformed tool does not hide the others of its page', async () => {
    const s = await scanOne(raw('malformed-tool'));
    expect(s.status).toBe('ok');
    expect(s.tools).toHaveLength(3);
    expect(s.findings.map((f) => f.rule)).toContain('malformed-tool-entry');
    const bad = s.tools.find((t) => t.annotations?.readOnlyHint === 'true');
    expect(bad?.verdict).toBe('unprotected');
    expect(bad?.findings.map((f) => f.rule)).toContain('malformed-hint');
  });
});

describe('pagination', () => {
  it('follows nextCursor to the end', async () => {
    const s = await scanOne(raw('many-pages'));
    expect(s.tools.map((t) => t.name)).toEqual(Array.from({ length: 15 }, (_, i) => `tool_${i + 1}`));
  });

  it('stops at --max-pages, keeping what it read', async () => {
    const s = await scanOne(raw('many-pages'), { ...fast, maxPages: 3 });
    expect(s.status).toBe('ok');
    expect(s.tools).toHaveLength(9);
    expect(s.findings.map((f) => f.rule)).toContain('pagination-bound');
  });

  it('stops on a cursor that repeats, keeping what it read', async () => {
    const s = await scanOne(raw('endless-cursor'));
    expect(s.status).toBe('ok');
    expect(s.tools.length).toBeGreaterThan(0);
    expect(s.tools.length).toBeLessThanOrEqual(64);
    expect(s.findings.map((f) => f.rule)).toContain('pagination-loop');
  });
});

describe('awkward servers', () => {
  it('a server silent before initialize is found to be legacy after the probe timeout', async () => {
    const s = await scanOne(raw('silent-before-init'));
    expect(s.status).toBe('ok');
    expect(s.protocol?.era).toBe('legacy');
    expect(s.protocol?.negotiation).toMatch(/no answer to server\/discover/);
    expect(s.tools).toHaveLength(3);
  });

  it('a modern server slower to start than the probe timeout is still found to be modern', async () => {
    const s = await scanOne(raw('slow-start-modern'), { ...fast, probeTimeoutMs: 300 });
    expect(s.status).toBe('ok');
    expect(s.protocol?.era).toBe('modern');
    expect(s.protocol?.negotiation).toMatch(/slow start/);
  });

  it('a banner line on stdout is tolerated and reported', async () => {
    const s = await scanOne(raw('banner'));
    expect(s.status).toBe('ok');
    expect(s.tools).toHaveLength(2);
    expect(s.findings.map((f) => f.rule)).toContain('stdout-noise');
  });

  it('bounds a huge description', async () => {
    const s = await scanOne(raw('huge-description'));
    expect(s.status).toBe('ok');
    for (const t of s.tools) expect((t.description ?? '').length).toBeLessThan(5_000);
  });

  it('a server behind sh -c that outlives its stdin is ended with its whole process group', async () => {
    const before = log.entries().length;
    const s = await scanOne({
      name: 'orphan',
      source: 'test',
      transport: 'stdio',
      command: 'sh',
      args: [FIXTURES.shOrphan],
      env: { IDEMSCAN_FIXTURE_LOG: log.file },
    });
    expect(s.status).toBe('ok');
    const spawned = log.entries().slice(before);
    expect(spawned.length).toBeGreaterThanOrEqual(3); // sh, the server, its sleeping child
    expect(await waitGone(spawned.map((e) => e.pid))).toEqual([]);
  });
});

describe('failures are values with a kind', () => {
  it.each([
    ['hang', 'timeout'],
    ['crash', 'exited'],
    ['crash-after-init', 'exited'],
    ['not-json-rpc', 'protocol'],
  ])('%s -> %s', async (mode, kind) => {
    const s = await scanOne(raw(mode), { ...fast, timeoutMs: 2_500 });
    expect(s.status).toBe('failed');
    expect(s.failure?.kind).toBe(kind);
    expect(s.tools).toEqual([]);
  });

  it('keeps the stderr tail of a crash', async () => {
    const s = await scanOne(raw('crash'));
    expect(s.failure?.stderr).toContain('fatal: could not open database /nonexistent');
  });

  it('a line on stdout that never ends is cut off at the frame bound', async () => {
    const flood =
      "const b = 'x'.repeat(1 << 20); const w = () => { while (process.stdout.write(b)); process.stdout.once('drain', w); }; w();";
    const s = await scanOne(
      { name: 'flood', source: 'test', transport: 'stdio', command: process.execPath, args: ['-e', flood] },
      { ...fast, maxFrameBytes: 4 * 1024 * 1024 },
    );
    expect(s.failure?.kind).toBe('protocol');
    expect(s.failure?.message).toMatch(/exceeded 4194304 bytes/);
  });

  it('a command that does not exist is a spawn failure', async () => {
    const s = await scanOne({ name: 'nope', source: 'test', transport: 'stdio', command: '/nonexistent/mcp-server' });
    expect(s.failure).toMatchObject({ kind: 'spawn' });
  });

  it('one bad server neither stops nor loses the others', async () => {
    const report = await scan(
      [raw('hang'), node('modern', FIXTURES.modernStdio), raw('crash'), node('legacy', FIXTURES.legacyStdio)],
      { ...fast, timeoutMs: 3_000 },
    );
    expect(report.servers.map((s) => [s.name, s.status])).toEqual([
      ['hang', 'failed'],
      ['modern', 'ok'],
      ['crash', 'failed'],
      ['legacy', 'ok'],
    ]);
    expect(report.summary).toMatchObject({
      servers: 4,
      serversOk: 2,
      serversFailed: 2,
      tools: 16,
      readOnly: 2,
      keyed: 4,
      idempotent: 2,
      unprotected: 8,
    });
  });

  it('gives the server only a minimal environment plus what the target declares', async () => {
    process.env.IDEMSCAN_TEST_SECRET = 'leak-me';
    try {
      const s = await scanOne({ ...raw('env-echo'), env: { ...raw('env-echo').env, DECLARED: 'yes' } });
      const seen = JSON.parse(s.tools[0]!.description!) as string[];
      expect(seen).toContain('DECLARED');
      expect(seen).toContain('PATH');
      expect(seen).not.toContain('IDEMSCAN_TEST_SECRET');
      expect(
        seen.every((n) =>
          ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'DECLARED', 'MODE', 'IDEMSCAN_FIXTURE_LOG'].includes(n),
        ),
      ).toBe(true);
      expect(s.target.env).toEqual(['IDEMSCAN_FIXTURE_LOG', 'MODE', 'DECLARED']);
    } finally {
      delete process.env.IDEMSCAN_TEST_SECRET;
    }
  });
});
