/**
 * `idemscan probe-census --auto` through the built CLI: a target list's stdio servers probed without
 * plans (the auto-probe fixture, and one that dies at start), the table remade with the plan rows
 * already there kept beside the auto ones, and a second run that reuses every kept report.
 */
import { mkdirSync, readdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { BehaviourTable } from '../../src/census/behaviour/behaviour.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
if (!hasBwrap) console.warn('probe-census-auto.test.ts: skipped, bubblewrap (bwrap) does not work on this machine');

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'idemscan-census-auto-')));
const env = { HOME: path.join(dir, 'home'), IDEMSCAN_CACHE: path.join(dir, 'cache') };
mkdirSync(env.HOME);

const list = path.join(dir, 'list.json');
writeFileSync(
  list,
  JSON.stringify({
    servers: [
      { name: 'fixture', command: process.execPath, args: [FIXTURES.autoProbe] },
      { name: 'dies', command: process.execPath, args: ['-e', 'process.exit(3)'] },
      { name: 'remote', url: 'http://127.0.0.1:9/mcp' },
    ],
  }),
);

/** A plan library's table as probe-census writes it: one server, one row. */
const planTable = {
  kind: 'idemscan-behaviour',
  schemaVersion: '1',
  generatedAt: '2026-12-01T00:00:00.000Z',
  idemscanVersion: '0.1.0',
  method: { library: 'probes', sandbox: true, network: 'loopback only', node: 'v20' },
  summary: {
    servers: 1,
    probed: 1,
    experiments: 1,
    outcomes: {
      'retry-safe': 1,
      'reissue-refused': 0,
      'repeated-effect': 0,
      inconclusive: 0,
      failed: 0,
      'not-probed': 0,
    },
    agreements: { agrees: 0, understates: 1, overstates: 0, unknown: 0 },
    expected: 0,
    matched: 0,
  },
  servers: [{ name: 'memory', package: 'm@1', toolsListed: 1, experiments: 1, requests: 5, durationMs: 10 }],
  rows: [
    {
      server: 'memory',
      tool: 'create_entities',
      declared: { readOnlyHint: null, destructiveHint: null, idempotentHint: null, openWorldHint: null },
      verdict: 'unprotected',
      key: null,
      outcome: 'retry-safe',
      agreement: 'understates',
      words: 'declares nothing, does not repeat its effect',
      reason: 'seen',
      requests: 5,
      durationMs: 10,
    },
  ],
};

const census = (out: string, more: string[] = []) =>
  idemscan(['probe-census', '--auto', '--targets', list, '--out', out, ...more], { env, cwd: dir });

describe.skipIf(!hasBwrap)('probe-census --auto', () => {
  it('probes each stdio server without a plan, keeps the plan rows, and reuses its reports on the next run', async () => {
    const out = path.join(dir, 'out');
    mkdirSync(out);
    writeFileSync(path.join(out, 'behaviour.json'), JSON.stringify(planTable));
    const first = await census(out);
    expect(first.stderr).toMatch(/will call every tool of 2 servers of .*list\.json twice, each on a fresh server/);
    expect(first.stderr).toContain('dies');
    expect(first.stdout).toMatch(/^fixture 1\.0\.0: 11 experiments/m);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).not.toContain('its rows are not kept');
    const table = BehaviourTable.parse(JSON.parse(readFileSync(path.join(out, 'behaviour.json'), 'utf8')));
    expect(table.method).toMatchObject({ library: 'probes', targets: list });
    expect(table.servers.map((s) => [s.method, s.name, s.error === undefined])).toEqual([
      ['plan', 'memory', true],
      ['auto', 'dies', false],
      ['auto', 'fixture', true],
    ]);
    const auto = table.rows.filter((r) => r.method === 'auto');
    expect(auto).toHaveLength(11);
    expect(table.rows.filter((r) => (r.method ?? 'plan') === 'plan').map((r) => r.tool)).toEqual(['create_entities']);
    expect(auto.find((r) => r.tool === 'append_log')).toMatchObject({
      outcome: 'repeated-effect',
      agreement: 'overstates',
    });
    // A report per server, the server that died included: its name and a hash of it.
    expect(readdirSync(path.join(out, 'auto-reports')).sort()).toEqual([
      expect.stringMatching(/^dies-[0-9a-f]{8}\.json$/),
      expect.stringMatching(/^fixture-[0-9a-f]{8}\.json$/),
    ]);
    expect(readFileSync(path.join(out, 'behaviour.md'), 'utf8')).toContain(
      'Without a plan (--auto): 1 server, 11 tool experiments',
    );

    const again = await census(out, ['-q']);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe('');
    const remade = BehaviourTable.parse(JSON.parse(readFileSync(path.join(out, 'behaviour.json'), 'utf8')));
    expect(remade.rows).toEqual(table.rows);
  });

  it('needs --targets', async () => {
    const r = await idemscan(['probe-census', '--auto', '--out', path.join(dir, 'none')], { env, cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--auto needs --targets FILE');
  });
});
