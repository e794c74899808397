/**
 * The per-tool dataset (render/dataset-rows.ts, tools.csv and tools.ndjson) and the download-weighted
 * summary, on hand-made reports: hostile values, a hand-computed weighting, merge keeping it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mergeReports } from '../../src/compare/merge.js';
import { DATASET_COLUMNS, datasetRows, runColumns } from '../../src/render/dataset-rows.js';
import { csvField, csvReporter, needsFormulaGuard, ndjsonReporter } from '../../src/render/dataset.js';

const renderCsv = (r: Report) => csvReporter.render(r);
const renderNdjson = (r: Report) => ndjsonReporter.render(r);
import { markdownReporter } from '../../src/render/markdown.js';
import { Report as ReportSchema, type Report, type ServerReport, type TargetInfo } from '../../src/model/schema.js';
import { summarize } from '../../src/model/summary.js';
import { parseCsv } from '../helpers/csv.js';
import { okServer, reportOf } from '../helpers/reports.js';

const server = (
  name: string,
  rawTools: Record<string, unknown>[],
  target: Partial<TargetInfo> = {},
  extra: Partial<ServerReport> = {},
): ServerReport => okServer(name, rawTools, { target: { transport: 'stdio', command: 'node', ...target }, ...extra });

function failed(name: string, downloads: number): ServerReport {
  return {
    ...server(name, []),
    status: 'failed',
    failure: { kind: 'spawn', message: 'no' },
    target: { transport: 'stdio', downloads },
  };
}

const report = (servers: ServerReport[]): Report => reportOf(servers);

const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });

const hostile = server(
  'evil, "quoted"\r\nserver',
  [
    {
      name: '=HYPERLINK("http://x","y")',
      title: 'a, "b"\nc',
      annotations: { readOnlyHint: 'true', destructiveHint: false, idempotentHint: { deep: [1] } },
    },
    { name: '+1', title: '-2', annotations: { openWorldHint: -1 } },
    {
      name: '@sum',
      title: '\tTab',
      inputSchema: obj({ idempotency_key: { type: 'string' }, request_id: { type: 'string' } }),
    },
    { name: 'plain', annotations: { readOnlyHint: true } },
  ],
  { npm: '@scope/pkg@1.2.3', downloads: 1234 },
);

describe('dataset rows', () => {
  const whole = report([
    hostile,
    failed('down', 9),
    server(
      'sdk-less',
      [{ name: 'x' }],
      {},
      { serverInfo: { name: 's', version: '0.9' }, protocol: { era: 'modern', version: '2026-07-28' } },
    ),
  ]);
  const rows = [...datasetRows(whole.servers, runColumns(whole))];

  it('one row per tool of every ok server, with package, version and downloads', () => {
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({ server: hostile.name, package: '@scope/pkg', version: '1.2.3', downloads: 1234 });
    expect(rows[4]).toMatchObject({ server: 'sdk-less', package: null, version: '0.9', downloads: null, tool: 'x' });
  });

  it('hints as received (booleans, anything else as sent), absent as null; effective ones beside', () => {
    expect(rows[0]).toMatchObject({
      read_only_hint: 'true',
      destructive_hint: false,
      idempotent_hint: { deep: [1] },
      open_world_hint: null,
      read_only: false,
      destructive: false,
      idempotent: false,
      open_world: true,
      verdict: 'unprotected',
    });
    expect(rows[1]).toMatchObject({ open_world_hint: -1, open_world: true });
  });

  it('strong key argument paths only, and sorted, deduplicated rule ids', () => {
    expect(rows[2]).toMatchObject({ key_arguments: '$.idempotency_key', verdict: 'keyed' });
    const ids = hostile.tools[0]!.findings.map((f) => f.rule);
    expect(ids).toContain('malformed-hint');
    expect(rows[0]!.findings).toBe([...new Set(ids)].sort().join(';'));
  });

  it('weak key arguments with their JSONPath, apart from the strong ones', () => {
    expect(rows[2]).toMatchObject({ key_arguments: '$.idempotency_key', weak_key_arguments: '$.request_id' });
    expect(rows[3]).toMatchObject({ key_arguments: '', weak_key_arguments: '' });
  });

  it('the definition hash as the report has it, the protocol era and version, null where the report has none', () => {
    expect(rows[0]!.definition_hash).toBe(hostile.tools[0]!.definitionHash);
    expect(rows[0]!.definition_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(rows[0]).toMatchObject({ protocol_era: null, protocol_version: null });
    expect(rows[4]).toMatchObject({ protocol_era: 'modern', protocol_version: '2026-07-28' });
    const { definitionHash: _gone, ...old } = hostile.tools[0]!;
    const oldServer = { ...hostile, tools: [old] };
    expect([...datasetRows([oldServer], runColumns(whole))][0]!.definition_hash).toBeNull();
  });

  it('every row carries its run: the day, the start and the idemscan version', () => {
    const r = reportOf([hostile], {
      startedAt: '2026-12-07T23:59:59.000Z',
      tool: { name: 'idemscan', version: '1.2.3' },
    });
    const [row] = datasetRows(r.servers, runColumns(r));
    expect(row).toMatchObject({
      run_date: '2026-12-07',
      run_started_at: '2026-12-07T23:59:59.000Z',
      idemscan_version: '1.2.3',
    });
  });
});

describe('the CSV formula guard', () => {
  it.each([
    `@SUM(1+1)*cmd|' /C calc'!A0`,
    '=HYPERLINK("http://x","y")',
    '-2+3',
    '-1',
    '+1',
    '@a(b)',
    '@sum',
    '@scope/name(1)',
    '@scope/a/b',
    '@Scope/name',
    '@scope/',
    '@/name',
    '@scope/na|me',
    '@scope/name!A1',
    '@scope/name@1.0.0',
    '@' + 'a'.repeat(107) + '/' + 'b'.repeat(107),
    '\t=1',
    '\r=1',
  ])('guards %j, which could be a formula', (cell) => {
    expect(needsFormulaGuard(cell)).toBe(true);
    expect(csvField(cell).replace(/^"/, '')).toMatch(/^'/);
  });

  it.each([
    '@upstash/context7-mcp',
    '@modelcontextprotocol/server-github',
    '@a/b',
    '@x.y_z~1/n-a.m_e~',
    'plain',
    'a=b',
    '',
  ])('leaves %j, which cannot be a formula that calls anything, as it is', (cell) => {
    expect(needsFormulaGuard(cell)).toBe(false);
    expect(csvField(cell)).toBe(cell);
  });
});

describe('tools.csv', () => {
  const r = report([hostile, failed('down', 9)]);
  const csv = renderCsv(r);
  const records = parseCsv(csv);

  it('parses as RFC 4180: a header, one record per tool, every record the same width', () => {
    expect(records[0]).toEqual(DATASET_COLUMNS);
    expect(records).toHaveLength(1 + r.summary.tools);
    for (const rec of records) expect(rec).toHaveLength(DATASET_COLUMNS.length);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('keeps commas, quotes and line breaks inside their field', () => {
    const col = (name: string) => DATASET_COLUMNS.indexOf(name as (typeof DATASET_COLUMNS)[number]);
    expect(records[1]![col('server')]).toBe(hostile.name);
    expect(records[1]![col('title')]).toBe('a, "b"\nc');
    expect(records[1]![col('read_only_hint')]).toBe('"true"');
    expect(records[1]![col('idempotent_hint')]).toBe('{"deep":[1]}');
    // A scoped package name from the list is no formula: kept as it is, so it joins with npm's name.
    expect(records[1]![col('package')]).toBe('@scope/pkg');
  });

  it("guards cells a spreadsheet would run as a formula with a leading '", () => {
    const tools = records.slice(1).map((rec) => rec[DATASET_COLUMNS.indexOf('tool')]);
    expect(tools).toEqual([`'=HYPERLINK("http://x","y")`, "'+1", "'@sum", 'plain']);
    const titles = records.slice(1).map((rec) => rec[DATASET_COLUMNS.indexOf('title')]);
    expect(titles[1]).toBe("'-2");
    expect(titles[2]).toBe("'\tTab");
    expect(records[2]![DATASET_COLUMNS.indexOf('open_world_hint')]).toBe("'-1");
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
  });
});

describe('tools.ndjson', () => {
  it('one JSON object per tool with the columns in order, values typed, no formula guard', () => {
    const r = report([hostile]);
    const lines = renderNdjson(r).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(r.summary.tools);
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(DATASET_COLUMNS);
    expect(first).toMatchObject({
      tool: '=HYPERLINK("http://x","y")',
      downloads: 1234,
      read_only: false,
      open_world_hint: null,
    });
  });

  it('hints as JSON: booleans as booleans, any other value as sent, absent as null', () => {
    const lines = renderNdjson(report([hostile]))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      read_only_hint: 'true',
      destructive_hint: false,
      idempotent_hint: { deep: [1] },
      open_world_hint: null,
    });
    expect(lines[1]).toMatchObject({ open_world_hint: -1 });
    expect(lines[3]).toMatchObject({ read_only_hint: true, destructive_hint: null });
    // The string "true" and the boolean true stay apart: a consumer tells them by their JSON type.
    expect(typeof lines[0]!.read_only_hint).toBe('string');
    expect(typeof lines[3]!.read_only_hint).toBe('boolean');
  });

  it('an empty report is a header-only CSV and an empty NDJSON', () => {
    expect(renderCsv(report([]))).toBe(DATASET_COLUMNS.join(',') + '\r\n');
    expect(renderNdjson(report([]))).toBe('');
  });
});

describe('docs/DATASET.md', () => {
  it('documents every column, in order', () => {
    const doc = readFileSync(new URL('../../docs/DATASET.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(DATASET_COLUMNS);
  });
});

// Hand-computed: A (1,000, read-only + unprotected), B (300, keyed), C (100, no tools),
// D (failed, 5,000: left out), E (no downloads figure: left out). Total 1,400.
const A = server('a', [{ name: 'r', annotations: { readOnlyHint: true } }, { name: 'w' }], { downloads: 1_000 });
const B = server('b', [{ name: 'pay', inputSchema: obj({ idempotency_key: { type: 'string' } }) }], { downloads: 300 });
const C = server('c', [], { downloads: 100 });
const E = server('e', [{ name: 'w' }]);

describe('weighted summary', () => {
  it('counts scanned-ok servers with a figure; per verdict the servers with at least one such tool', () => {
    const s = summarize([A, B, C, failed('d', 5_000), E]);
    expect(s.weighted).toEqual({
      servers: 3,
      downloads: 1_400,
      verdicts: {
        'read-only': { servers: 1, downloads: 1_000, share: 0.7143 },
        'protocol-keyed': { servers: 0, downloads: 0, share: 0 },
        keyed: { servers: 1, downloads: 300, share: 0.2143 },
        idempotent: { servers: 0, downloads: 0, share: 0 },
        unprotected: { servers: 1, downloads: 1_000, share: 0.7143 },
      },
    });
    expect(s.unprotected).toBe(2); // tool counts are unchanged by the weighting
  });

  it('is absent without download figures, so ordinary reports and old ones stay as they were', () => {
    expect(summarize([E]).weighted).toBeUndefined();
    expect(summarize([failed('d', 5)]).weighted).toBeUndefined();
    const old = report([E]);
    expect(ReportSchema.safeParse(JSON.parse(JSON.stringify(old))).success).toBe(true);
  });

  it('a total of 0 downloads gives shares of 0, not NaN', () => {
    expect(summarize([server('z', [{ name: 'w' }], { downloads: 0 })]).weighted?.verdicts.unprotected).toEqual({
      servers: 1,
      downloads: 0,
      share: 0,
    });
  });

  it('merge recounts it to what one report of every server holds', () => {
    const whole = report([A, B, C, failed('d', 5_000), E]);
    const { report: merged } = mergeReports([
      { file: '1.json', report: report([A, failed('d', 5_000)]) },
      { file: '2.json', report: report([B, C, E]) },
    ]);
    expect(merged.summary.weighted).toEqual(whole.summary.weighted);
    expect(merged.summary).toEqual(whole.summary);
  });

  it('Markdown shows it as a table', () => {
    const md = markdownReporter.render(report([A, B, C]));
    expect(md).toContain('## Weighted by use');
    expect(md).toContain('| **unprotected** (at least one unprotected tool) | 1 | 33.3% | 1 | 1,000 | 71.4% |');
  });
});
