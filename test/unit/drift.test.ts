/** Drift against a lock (compare/drift.ts), the description diff, and diff's definition-changed. */
import { describe, expect, it } from 'vitest';
import { classifyServer } from '../../src/classify/index.js';
import { descriptionDiff, DIFF_LINES } from '../../src/compare/definition.js';
import { diffReports } from '../../src/compare/diff.js';
import { driftOf } from '../../src/compare/drift.js';
import { renderDrift } from '../../src/render/drift.js';
import { lockOf } from '../../src/compare/lock.js';
import type { Report, ServerReport } from '../../src/model/schema.js';
import { summarize } from '../../src/model/summary.js';

function report(tools: Record<string, unknown>[], name = 'srv'): Report {
  const c = classifyServer({ name, rawTools: tools });
  const server: ServerReport = {
    name,
    status: 'ok',
    target: { transport: 'stdio' },
    idempotencyCapability: false,
    durationMs: 1,
    tools: c.tools,
    findings: c.findings,
  };
  return {
    schemaVersion: '1',
    tool: { name: 'idemscan', version: '0' },
    startedAt: 't0',
    finishedAt: 't1',
    options: {},
    summary: summarize([server]),
    servers: [server],
  };
}

const read = { name: 'read', description: 'Reads.', annotations: { readOnlyHint: true } };
const write = {
  name: 'write',
  inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
};

describe('driftOf', () => {
  const lock = lockOf(report([read, write]));

  it('finds nothing when nothing changed', () => {
    expect(driftOf(report([write, read]), lock, 'l.json')).toMatchObject({ drifted: false, changes: [] });
  });

  it('names each weakened hint, as the issue lists them', () => {
    const weaker = report([
      { ...read, annotations: {} }, // readOnlyHint true -> absent
      { ...write, annotations: { readOnlyHint: false, destructiveHint: true } }, // destructiveHint false -> true, idempotentHint true -> absent
    ]);
    const kinds = driftOf(weaker, lock, 'l.json').changes.map((c) =>
      c.kind === 'hint-weakened'
        ? `${c.tool} ${c.hint} ${c.from} -> ${c.to}`
        : `${c.kind} ${'tool' in c ? c.tool : ''}`,
    );
    expect(kinds).toEqual([
      'definition-changed read',
      'read readOnlyHint true -> undefined',
      'verdict-worse read',
      'definition-changed write',
      'write destructiveHint false -> true',
      'write idempotentHint true -> undefined',
    ]);
  });

  it('lists servers added, removed and failed, but not those outside a shard', () => {
    const other = report([read], 'other');
    expect(driftOf(other, lock, 'l.json').changes.map((c) => c.kind)).toEqual(['server-added', 'server-removed']);
    expect(
      driftOf({ ...other, options: { shard: { index: 1, count: 2 } } }, lock, 'l.json').changes.map((c) => c.kind),
    ).toEqual(['server-added']);
    const failed = report([]);
    failed.servers[0] = { ...failed.servers[0]!, status: 'failed', failure: { kind: 'timeout', message: 'slow' } };
    expect(driftOf(failed, lock, 'l.json').changes).toEqual([
      { kind: 'server-failed', server: 'srv', failure: 'timeout: slow' },
    ]);
  });

  it('a tool without a hash on either side is never taken as unchanged', () => {
    const unhashable = JSON.parse(
      '{"name":"read","inputSchema":{"maximum":1e400},"annotations":{"readOnlyHint":true}}',
    );
    const locked = lockOf(report([unhashable]));
    expect(driftOf(report([unhashable]), locked, 'l.json').changes).toEqual([
      { kind: 'definition-changed', server: 'srv', tool: 'read', fields: [] },
    ]);
  });

  it('escapes what servers sent on the terminal', () => {
    const drift = driftOf(report([{ ...read, name: 'evil\u001b[2J' }]), lock, 'l.json');
    expect(renderDrift(drift)).not.toContain('\u001b');
    expect(renderDrift(drift)).toContain('srv/evil\\u001b[2J: tool added');
  });
});

describe('descriptionDiff', () => {
  it('shows only the lines that changed, around the first difference of a single line', () => {
    expect(descriptionDiff('a\nb\nc', 'a\nB\nc')).toEqual(['@@ line 2', '- b', '+ B']);
    const long = 'x'.repeat(100);
    const [minus, plus] = descriptionDiff(`${long} old end`, `${long} new end`)!;
    expect(minus).toMatch(/^- \[\d+ earlier characters\] …x+ old end$/);
    expect(plus).toMatch(/new end$/);
  });

  it('is bounded in lines and characters', () => {
    const lines = descriptionDiff(
      Array.from({ length: 100 }, (_, i) => `old ${i}`).join('\n'),
      Array.from({ length: 100 }, (_, i) => `new ${i} ${'y'.repeat(1_000)}`).join('\n'),
    )!;
    expect(lines.length).toBeLessThanOrEqual(DIFF_LINES + 2);
    for (const l of lines) expect(l.length).toBeLessThan(220);
    expect(descriptionDiff(undefined, 'now')).toEqual(['- (no description)', '+ now']);
  });
});

describe('diff: definition-changed', () => {
  it('names the changed fields, neutral; reports from before hashing show none', () => {
    const doc = diffReports(report([read]), report([{ ...read, description: 'Reads more.' }]));
    expect(doc.changes).toEqual([
      {
        kind: 'definition-changed',
        server: 'srv',
        tool: 'read',
        direction: 'neutral',
        fields: ['description'],
        descriptionDiff: ['- Reads.', '+ Reads more.'],
      },
    ]);
    const old = report([read]);
    delete old.servers[0]!.tools[0]!.definitionHash;
    expect(diffReports(old, report([{ ...read, description: 'x' }])).changes).toEqual([]);
  });
});
