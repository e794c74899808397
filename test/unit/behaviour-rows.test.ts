/**
 * The behaviour table's rows (census/behaviour/behaviour-rows.ts) from a probe report's server, shaped as
 * `probe()` leaves it (classified tools with `probe` / `probes`, `probeSetup`): one row per
 * experiment in plan order, not-probed tools left out, the agreement stored, `expected` from the
 * library, the server's cost; a failed server has its error and no rows.
 */
import { describe, expect, it } from 'vitest';
import { behaviourOf, behaviourTable, type ServerRun } from '../../src/census/behaviour/behaviour-rows.js';
import { BehaviourTable } from '../../src/census/behaviour/behaviour.js';
import { ServerReport } from '../../src/model/schema.js';
import type { ToolProbe } from '../../src/model/probe-schema.js';
import { okServer } from '../helpers/reports.js';

const probe = (outcome: ToolProbe['outcome'], requests: number, extra: Partial<ToolProbe> = {}): ToolProbe => ({
  outcome,
  key: null,
  evidence: { reason: `${outcome} because`, calls: [], requests, durationMs: 3 },
  ...extra,
});

/** A probed server as probe() reports it: a keyed tool, a tool planned as two cases, an observer, an unplanned tool. */
function probedServer(): ServerReport {
  const s = okServer('shop', [
    { name: 'get_counts', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    { name: 'write', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, idempotentHint: 'yes' } },
    {
      name: 'create_order',
      inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } },
      annotations: { idempotentHint: false },
    },
    { name: 'delete_all', inputSchema: { type: 'object' } },
  ]);
  const probes: Record<string, Pick<ServerReport['tools'][number], 'probe' | 'probes'>> = {
    get_counts: { probe: probe('not-probed', 0) },
    write: { probes: [probe('repeated-effect', 5, { case: 1 }), probe('retry-safe', 5, { case: 2 })] },
    create_order: { probe: probe('retry-safe', 5, { key: '$.idempotency_key' }) },
    delete_all: { probe: probe('not-probed', 0) },
  };
  const tools = s.tools.map((t) => ({ ...t, ...probes[t.name] }));
  const setup = { calls: [], requests: 2, durationMs: 1 };
  return ServerReport.parse({
    ...s,
    tools,
    probeSetup: setup,
    serverInfo: { name: 'shop', version: '0.9.1' },
    durationMs: 412.6,
  });
}

const run = (extra: Partial<ServerRun> = {}): ServerRun => ({
  name: 'shop',
  package: 'node shop.mjs',
  planned: ['create_order', 'write'],
  expect: {
    create_order: { outcome: 'retry-safe', why: 'x' },
    write: [
      { outcome: 'retry-safe', why: 'wrongly' },
      { outcome: 'retry-safe', why: 'y' },
    ],
  },
  server: probedServer(),
  report: 'reports/shop.json',
  ...extra,
});

describe('behaviourOf', () => {
  it('one row per experiment, in plan order, with its declaration, agreement and expected outcome', () => {
    const { server, rows } = behaviourOf(run());
    expect(rows.map((r) => [r.tool, r.case, r.outcome, r.expected, r.agreement])).toEqual([
      ['create_order', undefined, 'retry-safe', 'retry-safe', 'agrees'],
      ['write', 1, 'repeated-effect', 'retry-safe', 'agrees'],
      ['write', 2, 'retry-safe', 'retry-safe', 'understates'],
    ]);
    const [order, write1] = rows;
    expect(order).toMatchObject({
      verdict: 'keyed',
      key: '$.idempotency_key',
      words: 'takes a key, does not repeat its effect',
    });
    expect(order).not.toHaveProperty('case');
    // A hint that is not a boolean reads as absent (its default applies).
    expect(write1!.declared).toEqual({
      readOnlyHint: null,
      destructiveHint: true,
      idempotentHint: null,
      openWorldHint: null,
    });
    expect(write1).toMatchObject({ reason: 'repeated-effect because', requests: 5, durationMs: 3 });
    // The whole probe: set-up 2 + 15 over the experiments; the session's wall time.
    expect(server).toEqual({
      method: 'plan',
      name: 'shop',
      package: 'node shop.mjs',
      version: '0.9.1',
      toolsListed: 4,
      experiments: 3,
      requests: 17,
      durationMs: 413,
      report: 'reports/shop.json',
    });
  });

  it('a failed server, or one with an error, has the error and no rows', () => {
    const failed = ServerReport.parse({
      ...okServer('shop', []),
      status: 'failed',
      failure: { kind: 'spawn', message: 'spawn /nope ENOENT' },
    });
    expect(behaviourOf(run({ server: failed }))).toMatchObject({
      server: { name: 'shop', error: 'spawn: spawn /nope ENOENT', experiments: 0, requests: 0 },
      rows: [],
    });
    const planError = behaviourOf(run({ error: 'the plan names "x"' }));
    expect(planError.rows).toEqual([]);
    expect(planError.server).toMatchObject({ error: 'the plan names "x"', toolsListed: 4, version: '0.9.1' });
    expect(behaviourOf(run({ server: undefined, report: undefined })).server).toMatchObject({ error: 'not probed' });
  });
});

describe('behaviourTable', () => {
  it('counts every outcome and agreement (zeros included), the expected and matched rows, in schema order', () => {
    const head = { generatedAt: 'now', idemscanVersion: '0.1.0', library: 'probes', network: 'none', node: 'v20' };
    const table = behaviourTable(head, [behaviourOf(run()), behaviourOf(run({ name: 'other', error: 'boom' }))]);
    expect(table.summary).toEqual({
      servers: 2,
      probed: 1,
      experiments: 3,
      outcomes: {
        'retry-safe': 2,
        'reissue-refused': 0,
        'repeated-effect': 1,
        inconclusive: 0,
        failed: 0,
        'not-probed': 0,
      },
      agreements: { agrees: 2, understates: 1, overstates: 0, unknown: 0 },
      expected: 3,
      matched: 2,
    });
    expect(Object.keys(table)).toEqual(Object.keys(BehaviourTable.shape));
    expect(Object.keys(table.rows[1]!)).toEqual(
      Object.keys(table.rows[1]!).sort((a, b) => rowKeys.indexOf(a) - rowKeys.indexOf(b)),
    );
    expect(table.method).toEqual({ library: 'probes', sandbox: true, network: 'none', node: 'v20' });
  });
});

const rowKeys = Object.keys(BehaviourTable.shape.rows.element.shape);
