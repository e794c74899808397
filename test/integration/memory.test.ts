/**
 * Memory bounded per server: servers that send up to a gigabyte within the per-message bounds
 * (test/fixtures/servers/hostile-memory.mjs) end with a `memory-budget` finding and a bounded
 * report. Peak RSS is not asserted here (it depends on the garbage collector): see
 * bench/memory.bench.ts for the figures.
 */
import { describe, expect, it } from 'vitest';
import { reporter } from '../../src/render/index.js';
import type { ServerReport } from '../../src/model/schema.js';
import { scan, type ScanOptions } from '../../src/app/scan/scan.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';

const MiB = 1024 * 1024;
const hostile = (mode: string, env: Record<string, string> = {}): TargetInput => ({
  name: `memory-${mode}`,
  source: 'test',
  transport: 'stdio',
  command: process.execPath,
  args: [FIXTURES.hostileMemory],
  env: { MODE: mode, ...env },
});
// Generous: the budget stops these servers after a few pages, the old code read every page.
const opts: ScanOptions = { probeTimeoutMs: 300, timeoutMs: 50_000 };

function expectBudgetHit(s: ServerReport): void {
  expect(s.status, JSON.stringify(s.failure)).toBe('ok');
  const finding = s.findings.find((f) => f.rule === 'memory-budget' && f.evidence === 'tools/list');
  expect(finding?.severity).toBe('warning');
  expect(finding?.message).toMatch(/32 MiB.*missing/);
}

describe('memory budget per server', () => {
  it('stops keeping 15 MB input schemas at the budget (64 pages of them would be 1 GB)', async () => {
    const s = (await scan([hostile('schemas')], opts)).servers[0]!;
    expectBudgetHit(s);
    expect(s.tools.length).toBeGreaterThan(0);
    expect(s.tools.length).toBeLessThan(64 * 4);
    expect(JSON.stringify(s).length).toBeLessThan(MiB);
  });

  it('charges small objects for what they weigh parsed, not for their JSON', async () => {
    const s = (await scan([hostile('nodes', { MB: '2' })], opts)).servers[0]!;
    expectBudgetHit(s);
    // 2 MB of `{}` is ~40 MB parsed: a 32 MiB budget holds one such page at most.
    expect(s.tools.length).toBeLessThan(2);
  });

  it('refuses a message of more objects than it may parse (15 MB of `{}` is 300 MB parsed)', async () => {
    const s = (await scan([hostile('nodes')], opts)).servers[0]!;
    expect(s.failure?.kind).toBe('protocol');
    expect(s.failure?.message).toMatch(/more than 1000000 objects and arrays/);
  });

  it('does not keep 15 MB cursors, and stops when they outgrow the budget', async () => {
    const s = (await scan([hostile('cursors')], opts)).servers[0]!;
    expectBudgetHit(s);
    expect(s.findings.find((f) => f.rule === 'memory-budget')?.message).toMatch(/cursor of \d+ characters/);
    expect(s.tools.length).toBeLessThan(64);
  });

  it('keeps a report and an HTML page of bounded size when every text is at its bound', async () => {
    const report = await scan([hostile('texts')], opts);
    const s = report.servers[0]!;
    expectBudgetHit(s);
    expect(s.tools.length).toBeLessThan(5_000);
    // What idemscan never reads is dropped on arrival, and big capabilities are cut to what is shown.
    expect(JSON.stringify(s.capabilities).length).toBeLessThan(20_000);
    expect(JSON.stringify(s.serverInfo).length).toBeLessThan(5_000);
    expect(JSON.stringify(report).length).toBeLessThan(32 * MiB);
    const html = (await reporter('html')).render(report);
    expect(html.length).toBeLessThan(32 * MiB);
    expect(html).toContain('To keep this page small');
    const embedded = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(embedded!).servers[0].tools).toHaveLength(s.tools.length);
  });
});
