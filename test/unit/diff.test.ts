import { describe, expect, it } from 'vitest';
import { compareVerdicts, diffReports, hintDirection } from '../../src/compare/diff.js';
import { DiffDocument, diffJsonSchema, type Change } from '../../src/model/diff.js';
import { mergeReports } from '../../src/compare/merge.js';
import { parseReport, ReportFileError } from '../../src/compare/read.js';
import { renderDiff } from '../../src/render/diff.js';
import { mdText } from '../../src/render/markdown-text.js';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { summarize } from '../../src/model/summary.js';
import { okServer, reportOf } from '../helpers/reports.js';

type RawTool = { name: string; annotations?: Record<string, unknown>; inputSchema?: unknown };

const KEY = { type: 'object', properties: { idempotency_key: { type: 'string' }, amount: { type: 'number' } } };
const NO_KEY = { type: 'object', properties: { amount: { type: 'number' } } };

function server(name: string, rawTools: RawTool[], opts: { idempotency?: boolean } = {}): ServerReport {
  const capabilities = opts.idempotency ? { tools: { idempotency: {} } } : { tools: {} };
  return okServer(name, rawTools, { capabilities, durationMs: 100 });
}

function failed(name: string): ServerReport {
  return {
    name,
    status: 'failed',
    failure: { kind: 'timeout', message: 'no answer within 30000 ms' },
    target: { transport: 'stdio', command: 'node' },
    idempotencyCapability: false,
    durationMs: 30_000,
    tools: [],
    findings: [],
  };
}

function report(servers: ServerReport[], startedAt = '2026-01-01T00:00:00.000Z'): Report {
  const finishedAt = new Date(Date.parse(startedAt) + 60_000).toISOString();
  return Report.parse(
    reportOf(servers, {
      tool: { name: 'idemscan', version: '0.1.0' },
      startedAt,
      finishedAt,
      options: { concurrency: 4 },
    }),
  );
}

const payments: RawTool[] = [
  { name: 'get_balance', annotations: { readOnlyHint: true } },
  { name: 'create_payment', inputSchema: KEY },
  { name: 'set_status', annotations: { idempotentHint: true, destructiveHint: false } },
  { name: 'send_email' },
];

function only(changes: Change[], kind: Change['kind']): Change[] {
  return changes.filter((c) => c.kind === kind);
}

describe('diff', () => {
  it('no change: an identical pair has no changes and no regression', () => {
    const a = report([server('pay', payments), failed('down')]);
    const doc = diffReports(a, report([server('pay', payments), failed('down')], '2026-02-01T00:00:00.000Z'));
    expect(doc.changes).toEqual([]);
    expect(doc.regression).toBe(false);
    expect(doc.counts).toEqual({ worse: 0, better: 0, neutral: 0 });
    expect(renderDiff(doc, 'text')).toContain('no changes');
    expect(() => DiffDocument.parse(doc)).not.toThrow();
  });

  it('servers added and removed are listed, not regressions', () => {
    const doc = diffReports(report([server('a', payments)]), report([server('b', payments)]));
    expect(doc.changes).toEqual([
      { kind: 'server-removed', server: 'a', direction: 'neutral', status: 'ok', tools: 4 },
      { kind: 'server-added', server: 'b', direction: 'neutral', status: 'ok', tools: 4 },
    ]);
    expect(doc.regression).toBe(false);
  });

  it('ok -> failed is a regression, failed -> ok an improvement, and the tools of a failed side are not diffed', () => {
    const worse = diffReports(report([server('pay', payments)]), report([failed('pay')]));
    expect(worse.changes).toEqual([
      {
        kind: 'status-changed',
        server: 'pay',
        direction: 'worse',
        from: 'ok',
        to: 'failed',
        failure: 'timeout: no answer within 30000 ms',
      },
    ]);
    expect(worse.regression).toBe(true);
    const better = diffReports(report([failed('pay')]), report([server('pay', payments)]));
    expect(better.changes.map((c) => [c.kind, c.direction])).toEqual([['status-changed', 'better']]);
    expect(better.regression).toBe(false);
  });

  it('tools added and removed', () => {
    const doc = diffReports(
      report([server('pay', payments)]),
      report([server('pay', [...payments.slice(1), { name: 'refund' }])]),
    );
    expect(only(doc.changes, 'tool-removed')).toEqual([
      { kind: 'tool-removed', server: 'pay', tool: 'get_balance', direction: 'neutral', verdict: 'read-only' },
    ]);
    expect(only(doc.changes, 'tool-added')).toEqual([
      { kind: 'tool-added', server: 'pay', tool: 'refund', direction: 'neutral', verdict: 'unprotected' },
    ]);
    expect(doc.regression).toBe(false);
  });

  it('tools of one name (duplicate-tool-name) pair in order: first with first, second with second', () => {
    const before = [
      { name: 'foo', annotations: { readOnlyHint: true } },
      { name: 'bar' },
      { name: 'foo', annotations: { idempotentHint: true } },
    ];
    const after = [
      { name: 'foo', annotations: { readOnlyHint: true } },
      { name: 'bar' },
      { name: 'foo' },
      { name: 'foo', annotations: { readOnlyHint: true } },
    ];
    const doc = diffReports(report([server('s', before)]), report([server('s', after)]));
    expect(doc.changes).toEqual([
      {
        kind: 'verdict-changed',
        server: 's',
        tool: 'foo',
        occurrence: 2,
        direction: 'worse',
        from: 'idempotent',
        to: 'unprotected',
      },
      {
        kind: 'annotation-changed',
        server: 's',
        tool: 'foo',
        occurrence: 2,
        direction: 'worse',
        hint: 'idempotentHint',
        from: 'true',
        to: undefined,
      },
      {
        kind: 'definition-changed',
        server: 's',
        tool: 'foo',
        occurrence: 2,
        direction: 'neutral',
        fields: ['annotations'],
      },
      { kind: 'tool-added', server: 's', tool: 'foo', occurrence: 3, direction: 'neutral', verdict: 'read-only' },
    ]);
    expect(() => DiffDocument.parse(doc)).not.toThrow();
    expect(renderDiff(doc, 'text')).toMatch(/WORSE +foo \(#2\): verdict idempotent -> unprotected/);
    expect(renderDiff(doc, 'md')).toContain('| foo (#3) | tool added (read-only) |');
    // The same tools in the same order: no change, although the name repeats.
    expect(diffReports(report([server('s', before)]), report([server('s', before)])).changes).toEqual([]);
  });

  it('the JSON Schema of a diff document (diff --schema) accepts a diff', () => {
    const schema = diffJsonSchema() as { $schema: string; properties: Record<string, unknown> };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(schema.properties)).toEqual(['diffVersion', 'old', 'new', 'regression', 'counts', 'changes']);
    expect(JSON.stringify(schema)).toContain('"occurrence"');
  });

  it('verdicts that got worse or better, in the order of safety', () => {
    const before = [
      { name: 'read', annotations: { readOnlyHint: true } },
      { name: 'write', annotations: { idempotentHint: true } },
    ];
    const after = [
      { name: 'read', annotations: { readOnlyHint: false, idempotentHint: true } },
      { name: 'write', inputSchema: KEY, annotations: { idempotentHint: true } },
    ];
    const doc = diffReports(report([server('s', before)]), report([server('s', after)]));
    expect(only(doc.changes, 'verdict-changed')).toEqual([
      { kind: 'verdict-changed', server: 's', tool: 'read', direction: 'worse', from: 'read-only', to: 'idempotent' },
      { kind: 'verdict-changed', server: 's', tool: 'write', direction: 'better', from: 'idempotent', to: 'keyed' },
    ]);
    expect(doc.regression).toBe(true);
    expect(compareVerdicts('protocol-keyed', 'keyed')).toBe('worse');
    expect(compareVerdicts('unprotected', 'read-only')).toBe('better');
    expect(compareVerdicts('keyed', 'keyed')).toBe('neutral');
  });

  it('hint downgrades are regressions; restating a default is not', () => {
    const before = [
      { name: 'a', annotations: { readOnlyHint: true } },
      { name: 'b', annotations: { readOnlyHint: true } },
      { name: 'c', annotations: { idempotentHint: true }, inputSchema: KEY },
      { name: 'd', annotations: { destructiveHint: false } },
      { name: 'e', annotations: { destructiveHint: false } },
      { name: 'f', annotations: { destructiveHint: true } },
      { name: 'g', annotations: {} },
    ];
    const after = [
      { name: 'a', annotations: { readOnlyHint: false } },
      { name: 'b', annotations: {} },
      { name: 'c', annotations: {}, inputSchema: KEY },
      { name: 'd', annotations: { destructiveHint: true } },
      { name: 'e', annotations: { destructiveHint: 'false' } },
      { name: 'f', annotations: {} },
      { name: 'g', annotations: { readOnlyHint: true } },
    ];
    const doc = diffReports(report([server('s', before)]), report([server('s', after)]));
    const hints = only(doc.changes, 'annotation-changed').map(
      (c) => c.kind === 'annotation-changed' && [c.tool, c.hint, c.from, c.to, c.direction],
    );
    expect(hints).toEqual([
      ['a', 'readOnlyHint', 'true', 'false', 'worse'],
      ['b', 'readOnlyHint', 'true', undefined, 'worse'],
      ['c', 'idempotentHint', 'true', undefined, 'worse'],
      ['d', 'destructiveHint', 'false', 'true', 'worse'],
      ['e', 'destructiveHint', 'false', '"false"', 'worse'], // a string is not a hint
      ['f', 'destructiveHint', 'true', undefined, 'neutral'], // the default says the same
      ['g', 'readOnlyHint', undefined, 'true', 'better'],
    ]);
    // c is keyed either way: only the hint changed.
    expect(only(doc.changes, 'verdict-changed').map((c) => 'tool' in c && c.tool)).toEqual(['a', 'b', 'g']);
    expect(hintDirection('openWorldHint', { openWorldHint: false }, undefined)).toBe('worse');
  });

  it('key arguments gained, lost and weakened, by path', () => {
    const strongAndWeak = {
      type: 'object',
      properties: { idempotency_key: { type: 'string' }, request_id: { type: 'string' } },
    };
    const before = [
      { name: 'pay', inputSchema: KEY },
      { name: 'order', inputSchema: NO_KEY },
      { name: 'ship', inputSchema: strongAndWeak },
    ];
    const after = [
      { name: 'pay', inputSchema: NO_KEY },
      {
        name: 'order',
        inputSchema: {
          type: 'object',
          properties: { opts: { type: 'object', properties: { clientToken: { type: 'string' } } } },
        },
      },
      { name: 'ship', inputSchema: { type: 'object', properties: { request_id: { type: 'string' } } } },
    ];
    const doc = diffReports(report([server('s', before)]), report([server('s', after)]));
    const keys = doc.changes.filter((c) => c.kind.startsWith('key-argument'));
    expect(keys).toEqual([
      {
        kind: 'key-argument-added',
        server: 's',
        tool: 'order',
        direction: 'better',
        key: { name: 'clientToken', path: '$.opts.clientToken', confidence: 'strong' },
      },
      {
        kind: 'key-argument-removed',
        server: 's',
        tool: 'pay',
        direction: 'worse',
        key: { name: 'idempotency_key', path: '$.idempotency_key', confidence: 'strong' },
      },
      {
        kind: 'key-argument-removed',
        server: 's',
        tool: 'ship',
        direction: 'worse',
        key: { name: 'idempotency_key', path: '$.idempotency_key', confidence: 'strong' },
      },
    ]);
    expect(doc.regression).toBe(true);
  });

  it('the idempotency capability gained or lost', () => {
    const tools = [{ name: 'charge' }];
    const lost = diffReports(report([server('s', tools, { idempotency: true })]), report([server('s', tools)]));
    expect(lost.changes[0]).toEqual({
      kind: 'capability-changed',
      server: 's',
      direction: 'worse',
      capability: 'tools.idempotency',
      from: true,
      to: false,
    });
    expect(only(lost.changes, 'verdict-changed')[0]).toMatchObject({
      tool: 'charge',
      from: 'protocol-keyed',
      to: 'unprotected',
      direction: 'worse',
    });
    const gained = diffReports(report([server('s', tools)]), report([server('s', tools, { idempotency: true })]));
    expect(gained.changes.map((c) => c.direction)).toEqual(['better', 'better']);
    expect(gained.regression).toBe(false);
  });

  it('only improvements: no regression', () => {
    const doc = diffReports(
      report([server('s', [{ name: 'x' }])]),
      report([server('s', [{ name: 'x', annotations: { readOnlyHint: true } }])]),
    );
    expect(doc.counts.better).toBeGreaterThan(0);
    expect(doc.counts.worse).toBe(0);
    expect(doc.regression).toBe(false);
  });

  it('orders changes by server, then tool, and validates against its own schema', () => {
    const doc = diffReports(
      report([server('zeta', [{ name: 'b' }, { name: 'a' }]), server('alpha', payments)]),
      report([server('alpha', payments.slice(0, 2)), server('zeta', [])]),
    );
    expect(doc.changes.map((c) => `${c.server}/${'tool' in c ? c.tool : ''}`)).toEqual([
      'alpha/send_email',
      'alpha/set_status',
      'zeta/a',
      'zeta/b',
    ]);
    expect(DiffDocument.parse(JSON.parse(renderDiff(doc, 'json')))).toEqual(doc);
  });
});

describe('diff renderers', () => {
  const evil = 'evil\u001b[31m|<script>alert(1)</script>\rname';
  const doc = diffReports(
    report([server(evil, [{ name: evil, annotations: { readOnlyHint: true } }])]),
    report([server(evil, [{ name: evil }])]),
  );

  it('text: no control character from a server reaches the terminal', () => {
    const text = renderDiff(doc, 'text');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(text).toContain('evil\\u001b[31m');
    expect(text).toMatch(/WORSE +evil.*: verdict read-only -> unprotected/);
    expect(text).toContain('definition changed: annotations');
    expect(text).toContain('2 worse, 0 better, 1 other changes');
  });

  it('md: cells cannot be broken out of, no HTML gets through', () => {
    const md = renderDiff(doc, 'md');
    expect(md).not.toContain('<script>');
    expect(md).toContain('&lt;script&gt;');
    expect(md).toContain('evil\\\\u001b\\[31m\\|'); // shows as evil\u001b[31m|
    // eslint-disable-next-line no-control-regex
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    const rows = md.split('\n').filter((l) => l.startsWith('| 🔴'));
    expect(rows).toHaveLength(2);
    // Every change row has exactly 4 cells: the escaped pipe does not count.
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(4);
    expect(mdText('a*b_c`d[e](f)&')).toBe('a\\*b\\_c\\`d\\[e\\](f)&amp;');
  });
});

describe('reading report files', () => {
  const good = report([server('s', payments)]);

  it('names the field of an invalid report', () => {
    const bad = JSON.parse(JSON.stringify(good));
    bad.servers[0].tools[1].verdict = 'maybe';
    expect(() => parseReport(JSON.stringify(bad), 'new.json')).toThrow(
      /^new\.json: invalid report: servers\[0\]\.tools\[1\]\.verdict: /,
    );
  });

  it('rejects non-JSON, non-reports and other schema versions', () => {
    expect(() => parseReport('{', 'a.json')).toThrow(ReportFileError);
    expect(() => parseReport('{', 'a.json')).toThrow(/a\.json: not valid JSON/);
    expect(() => parseReport('[]', 'a.json')).toThrow(/not an idemscan report/);
    expect(() => parseReport(JSON.stringify({ servers: [] }), 'a.json')).toThrow(/no schemaVersion/);
    expect(() => parseReport(JSON.stringify({ ...good, schemaVersion: '2' }), 'a.json')).toThrow(
      /schemaVersion "2" is not supported/,
    );
    expect(parseReport(JSON.stringify(good), 'a.json')).toEqual(good);
  });
});

describe('merge', () => {
  const a = report([server('zeta', payments), failed('down')], '2026-01-01T00:00:05.000Z');
  const b = report([server('alpha', [{ name: 'x' }])], '2026-01-01T00:00:01.000Z');
  a.skipped = [{ name: 'bad', source: 'targets.json', reason: 'servers[3].url: Invalid URL' }];
  b.skipped = [{ name: 'bad', source: 'targets.json', reason: 'servers[3].url: Invalid URL' }];
  a.manifest = { node: 'v20', packages: ['b@1', 'a@1'] };
  b.manifest = { node: 'v20', packages: ['c@1', 'a@1'] };
  a.options = { concurrency: 4, shard: { index: 1, count: 3 } };
  b.options = { concurrency: 4, shard: { index: 3, count: 3 } };

  it('concatenates servers by name, recomputes the summary, spans the times, unions the rest', () => {
    const { report: m, warnings } = mergeReports([
      { file: 'a.json', report: a },
      { file: 'b.json', report: b },
    ]);
    expect(m.servers.map((s) => s.name)).toEqual(['alpha', 'down', 'zeta']);
    expect(m.summary).toEqual(summarize([...a.servers, ...b.servers]));
    expect(m.startedAt).toBe('2026-01-01T00:00:01.000Z');
    expect(m.finishedAt).toBe('2026-01-01T00:01:05.000Z');
    expect(m.options).toEqual({ concurrency: 4, mergedFrom: ['a.json', 'b.json'] });
    expect(m.skipped).toHaveLength(1);
    expect(m.manifest).toEqual({ node: 'v20', packages: ['a@1', 'b@1', 'c@1'] });
    expect(() => Report.parse(m)).not.toThrow();
    expect(warnings).toEqual(['shard 2/3 missing: the merged report is incomplete']);
  });

  it('refuses duplicate server names and different schema versions', () => {
    expect(() =>
      mergeReports([
        { file: 'a.json', report: a },
        { file: 'a2.json', report: a },
      ]),
    ).toThrow(/"zeta" is in both a\.json and a2\.json/);
    const other = { ...b, schemaVersion: '2' } as unknown as Report;
    expect(() =>
      mergeReports([
        { file: 'a.json', report: a },
        { file: 'b.json', report: other },
      ]),
    ).toThrow(/schemaVersion/);
  });
});
