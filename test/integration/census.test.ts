/**
 * The census outputs through the built CLI over real fixture servers: the per-tool dataset
 * (`--format csv,ndjson`) read back with an RFC 4180 reader, the download-weighted summary, and
 * the trend section of `report --compare` and `merge --compare` from two saved reports.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATASET_COLUMNS, HINT_COLUMNS, hintText, type HintValue } from '../../src/render/dataset-rows.js';
import { needsFormulaGuard } from '../../src/render/dataset.js';
import { when } from '../../src/render/view.js';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-census-'));
const at = (...p: string[]) => path.join(dir, ...p);
const flags = ['--timeout', '15000', '-q'];
const node = (name: string, file: string, env: Record<string, string> = {}, downloads?: number) => ({
  name,
  command: process.execPath,
  args: [file],
  env,
  ...(downloads === undefined ? {} : { downloads }),
});

// Earlier list: drift v1 twice (one becomes another server later), and a server dropped since.
const OLD = [
  node('drift', FIXTURES.drift, { VERSION: '1' }, 500_000),
  node('payments', FIXTURES.drift, { VERSION: '1' }, 120_000),
  node('gone', FIXTURES.legacyStdio, {}, 3_000),
];
// Now: drift v2 (a description edit, destructiveHint false removed, a new tool), payments with
// keyed tools, a new server, one with no figure, one that fails (its downloads do not count).
const NEW = [
  node('drift', FIXTURES.drift, { VERSION: '2' }, 520_000),
  node('payments', FIXTURES.modernStdio, {}, 130_000),
  node('fresh', FIXTURES.raw, { MODE: 'idempotency-cap' }, 9_000),
  node('no-figure', FIXTURES.xss),
  node('crash', FIXTURES.raw, { MODE: 'crash' }, 70_000),
];

const read = (file: string) => Report.parse(JSON.parse(readFileSync(file, 'utf8')));
let current: Report;

beforeAll(async () => {
  writeFileSync(at('old-targets.json'), JSON.stringify({ servers: OLD }));
  writeFileSync(at('new-targets.json'), JSON.stringify({ servers: NEW }));
  // One after the other: two scans at once on two loaded cores could time a server out.
  const old = await idemscan([
    'scan',
    at('old-targets.json'),
    '--json',
    at('2026-11-29.json'),
    '--out',
    at('old'),
    ...flags,
  ]);
  expect(old.exitCode, old.stderr).toBe(0);
  const now = await idemscan([
    'scan',
    at('new-targets.json'),
    '--out',
    at('new'),
    '--format',
    'json,csv,ndjson,md,html',
    ...flags,
  ]);
  expect(now.exitCode, now.stderr).toBe(0);
  current = read(at('new', 'report.json'));
}, 120_000);

describe('the per-tool dataset', () => {
  it('tools.csv parses as RFC 4180: the documented header, one record per tool, each as wide', () => {
    const records = parseCsv(readFileSync(at('new', 'tools.csv'), 'utf8'));
    expect(records[0]).toEqual(DATASET_COLUMNS);
    expect(records.length - 1).toBe(current.summary.tools);
    for (const r of records) expect(r).toHaveLength(DATASET_COLUMNS.length);
    const col = (name: (typeof DATASET_COLUMNS)[number]) => DATASET_COLUMNS.indexOf(name);
    const servers = new Set(records.slice(1).map((r) => r[col('server')]));
    expect(servers).toEqual(
      new Set(current.servers.filter((s) => s.status === 'ok' && s.tools.length > 0).map((s) => s.name)),
    );
    const refund = records.find((r) => r[col('server')] === 'drift' && r[col('tool')] === 'issue_refund')!;
    expect(refund[col('downloads')]).toBe('520000');
    expect(refund[col('verdict')]).toBe('keyed');
    expect(refund[col('key_arguments')]).toBe('$.idempotency_key');
    expect(refund[col('destructive_hint')]).toBe('');
    expect(refund[col('destructive')]).toBe('true');
    // The columns a weekly dataset needs, from the real server's report.
    const drift = current.servers.find((s) => s.name === 'drift')!;
    const tool = drift.tools.find((t) => t.name === 'issue_refund')!;
    expect(refund[col('definition_hash')]).toBe(tool.definitionHash);
    expect(refund[col('definition_hash')]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(refund[col('protocol_era')]).toBe(drift.protocol!.era);
    expect(refund[col('protocol_version')]).toBe(drift.protocol!.version);
    expect(refund[col('run_date')]).toBe(current.startedAt.slice(0, 10));
    expect(refund[col('run_started_at')]).toBe(current.startedAt);
    expect(refund[col('idemscan_version')]).toBe(current.tool.version);
  });

  it('tools.ndjson holds the same rows', () => {
    const lines = readFileSync(at('new', 'tools.ndjson'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(current.summary.tools);
    const csv = parseCsv(readFileSync(at('new', 'tools.csv'), 'utf8')).slice(1);
    lines.forEach((line, i) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(row)).toEqual(DATASET_COLUMNS);
      // The CSV shows null as empty, a hint that is not a boolean JSON-encoded (NDJSON keeps it as
      // sent), and guards a formula start with `'`.
      const text = (c: (typeof DATASET_COLUMNS)[number]) =>
        HINT_COLUMNS.has(c) ? hintText(row[c] as HintValue) : row[c] === null ? null : String(row[c]);
      const asCsv = DATASET_COLUMNS.map((c) => {
        const t = text(c) ?? '';
        return needsFormulaGuard(t) ? `'${t}` : t;
      });
      expect(asCsv).toEqual(csv[i]);
    });
  });
});

describe('the weighted summary', () => {
  it('counts the scanned-ok servers with a figure (the failed one and the one without are left out)', () => {
    const w = current.summary.weighted!;
    expect(w.servers).toBe(3);
    expect(w.downloads).toBe(520_000 + 130_000 + 9_000);
    // Recount from the servers: those with at least one unprotected tool.
    const unprotected = current.servers
      .filter(
        (s) =>
          s.status === 'ok' && s.target.downloads !== undefined && s.tools.some((t) => t.verdict === 'unprotected'),
      )
      .reduce((n, s) => n + s.target.downloads!, 0);
    expect(w.verdicts.unprotected.downloads).toBe(unprotected);
    expect(w.verdicts['protocol-keyed']).toEqual({
      servers: 1,
      downloads: 9_000,
      share: Math.round((9_000 / w.downloads) * 10_000) / 10_000,
    });
  });

  it('Markdown and HTML show it', () => {
    expect(readFileSync(at('new', 'report.md'), 'utf8')).toContain('## Weighted by use');
    const html = readFileSync(at('new', 'report.html'), 'utf8');
    expect(html).toContain('id="weighted-section"');
    expect(html.match(/<ol class="bars">/g)).toHaveLength(2); // per-server chart, and the downloads chart
  });
});

describe('report --compare and merge --compare', () => {
  let compared: Report;
  beforeAll(async () => {
    const r = await idemscan([
      'report',
      at('new', 'report.json'),
      '--compare',
      at('2026-11-29.json'),
      '--format',
      'json,md,html',
      '--out',
      at('cmp'),
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    compared = read(at('cmp', 'report.json'));
  }, 60_000);

  it('records what it compared with: the base name, the start, the servers in both and only in one', () => {
    const old = read(at('2026-11-29.json'));
    const c = compared.comparedWith!;
    expect(c).toMatchObject({
      file: '2026-11-29.json',
      startedAt: old.startedAt,
      serversInBoth: 2,
      onlyOld: 1,
      onlyNew: 3,
    });
    expect(new Set(c.diff.changes.map((x) => x.server))).toEqual(new Set(['drift', 'payments']));
    expect(c.diff.old.summary.servers).toBe(2);
    expect(c.diff.new.summary.servers).toBe(2);
  });

  it('the diff is the drift between the two scans: the weakened hint, and the keyed tools that came', () => {
    const kinds = compared.comparedWith!.diff.changes.map(
      (x) => `${x.server} ${'tool' in x ? x.tool : ''} ${x.kind} ${x.direction}`,
    );
    expect(kinds).toContain('drift issue_refund annotation-changed worse');
    expect(kinds).toContain('drift archive_invoice tool-added neutral');
    expect(kinds).toContain('payments create_payment tool-added neutral');
  });

  it('Markdown and HTML render the stored diff', () => {
    const md = readFileSync(at('cmp', 'report.md'), 'utf8');
    const since = when(compared.comparedWith!.startedAt);
    expect(md).toContain(`## Trend since ${since}\n\nCompared with the report of ${since} (2026-11-29.json) over`);
    const trend = md.slice(md.indexOf('## Trend since'), md.indexOf('## Findings'));
    expect(trend).toContain('over the 2 servers in both reports; 1 only in the earlier one and 3 only in this one');
    expect(trend).toMatch(
      /### Hints removed or weakened \(1\)\n\n\| server \| tool \| change \|\n\| --- \| --- \| --- \|\n\| drift \| issue\\_refund \| destructiveHint false -> absent \|/,
    );
    expect(trend).toContain('| payments | create\\_payment | tool added (keyed) |');
    const html = readFileSync(at('cmp', 'report.html'), 'utf8');
    expect(html).toContain(
      `<h2 id="trend-h">Trend since ${since}</h2><p>Compared with the report of ${since} (<code>2026-11-29.json</code>) over`,
    );
    expect(html).toContain('destructiveHint false → absent');
  });

  it('merge --compare stores the same comparison', async () => {
    const m = await idemscan([
      'merge',
      at('new', 'report.json'),
      '--compare',
      at('2026-11-29.json'),
      '--json',
      at('merged.json'),
      '-q',
    ]);
    expect(m.exitCode, m.stderr).toBe(0);
    const merged = read(at('merged.json'));
    const { diff, ...rest } = merged.comparedWith!;
    const { diff: expected, ...expectedRest } = compared.comparedWith!;
    expect(rest).toEqual(expectedRest);
    expect(diff.changes).toEqual(expected.changes);
    expect(merged.summary).toEqual(current.summary);
  });

  it('an unreadable --compare file is a usage error naming it', async () => {
    const r = await idemscan([
      'report',
      at('new', 'report.json'),
      '--compare',
      at('missing.json'),
      '--format',
      'md',
      '--out',
      at('cmp2'),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('missing.json');
  });
});
