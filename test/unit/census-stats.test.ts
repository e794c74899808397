/** `idemscan stats`: the census statistics count the report's own judgements, per group. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { censusStats } from '../../src/census/stats/census-stats.js';
import { CensusStats } from '../../src/census/stats/census-stats-schema.js';
import { censusStatsMarkdown } from '../../src/census/stats/census-stats-md.js';
import { skipGroup } from '../../src/census/stats/skip-groups.js';
import type { ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';

const npm = (downloads: number) => ({ transport: 'stdio' as const, command: 'node', downloads });

const head = okServer(
  'payments',
  [
    { name: 'get_balance', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    {
      name: 'create_payment',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' }, idempotency_key: { type: 'string' } } },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    {
      name: 'list_refunds',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, idempotentHint: false },
    },
    { name: 'peek', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'true', title: 'Peek' } },
  ],
  { target: npm(1000) },
);
const tail = okServer('notes', [{ name: 'add_note', inputSchema: { type: 'object' } }], { target: npm(10) });
const failed: ServerReport = {
  name: 'slow',
  status: 'failed',
  target: npm(500),
  idempotencyCapability: false,
  durationMs: 30_000,
  tools: [],
  findings: [],
  failure: { kind: 'timeout', message: 'no answer in 30 s' },
};
const report = reportOf([head, tail, failed], {
  skipped: [
    { name: 'a', source: 'list.json', reason: 'needs network at start: it fetches its index' },
    { name: 'b', source: 'list.json', reason: 'needs network at start: a download' },
    { name: 'c', source: 'list.json', reason: 'Exits at start, for reasons of its own' },
  ],
});

describe('censusStats', () => {
  const stats = CensusStats.parse(censusStats(report, '/runs/2026-12-02/report.json', 1));
  const all = stats.groups[0]!;
  const top = stats.groups[1]!;

  it('counts every scanned server, and the most downloaded alone', () => {
    expect(stats.groups.map((g) => g.id)).toEqual(['all', 'top 1']);
    expect(all.summary).toMatchObject({ serversOk: 2, tools: 5 });
    expect(top.summary).toMatchObject({ serversOk: 1, tools: 4 });
    expect(stats.report.file).toBe('report.json');
  });

  it('counts each hint given as a boolean, and a string as malformed', () => {
    expect(all.hints.readOnlyHint).toEqual({ given: 3, true: 2, false: 1, malformed: 1 });
    expect(all.hints.idempotentHint).toEqual({ given: 1, true: 0, false: 1, malformed: 0 });
    expect(all.hints.openWorldHint.given).toBe(0);
    expect(all.titled).toBe(1);
  });

  it('names the keys of keyed tools, the contradictions, and the bands by size', () => {
    expect(all.keyNames).toEqual([{ name: 'idempotency_key', tools: 1, servers: 1 }]);
    expect(all.contradictions).toEqual([
      { combination: 'readOnlyHint: true + idempotentHint: false', tools: 1, servers: 1 },
    ]);
    const bands = Object.fromEntries(all.bySize.map((b) => [b.band, b]));
    expect(bands['1 tool']).toMatchObject({ servers: 1, tools: 1, annotatedTools: 0, serversWithUnprotected: 1 });
    expect(bands['2-5 tools']).toMatchObject({ servers: 1, tools: 4, serversAllAnnotated: 0 });
    expect(all.bySize.reduce((n, b) => n + b.servers, 0)).toBe(2);
  });

  it('counts failures by kind and skips by the group their reason starts with', () => {
    expect(stats.failed).toEqual({ timeout: 1 });
    expect(stats.skipped).toEqual({ 'needs network at start': 2, other: 1 });
  });

  it('has no top group when the census is no larger than it', () => {
    expect(censusStats(report, 'r.json', 125).groups.map((g) => g.id)).toEqual(['all']);
  });

  it('renders one column per group, and escapes server text', () => {
    const md = censusStatsMarkdown(stats);
    expect(md).toContain('| figure | all | top 1 |');
    expect(md).toMatch(/\| tools annotated \(any hint\) \| 3 \(60\.0%\) \| 3 \(75\.0%\) \|/);
    expect(md).toContain('| idempotency\\_key | 1 | 1 |');
    const hostile = okServer(
      'x',
      [
        {
          name: 'send',
          inputSchema: { type: 'object', properties: { 'idempotency_key|': { type: 'string' } } },
        },
      ],
      { target: npm(1) },
    );
    // A pipe in a key name would open a column of its own.
    expect(censusStatsMarkdown(censusStats(reportOf([hostile]), 'r.json', 0))).toContain(
      '| idempotency\\_key\\| | 1 | 1 |',
    );
  });
});

describe('censusStats, at the edges', () => {
  const weak = okServer(
    'b-weak',
    [{ name: 'send', inputSchema: { type: 'object', properties: { request_id: { type: 'string' } } } }],
    { target: npm(50) },
  );
  const wipe = okServer(
    'a-wipe',
    [{ name: 'wipe', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: true } }],
    { target: npm(50) },
  );
  const empty = okServer('c-empty', [], { target: npm(100) });
  const stats = censusStats(reportOf([weak, empty, wipe]), '/runs/report_1.json', 2);
  const [all, top] = [stats.groups[0]!, stats.groups[1]!];

  it('takes the most downloaded first and breaks a tie by name', () => {
    expect(top.summary.serversOk).toBe(2);
    expect(top.contradictions).toEqual([
      { combination: 'readOnlyHint: true + destructiveHint: true', tools: 1, servers: 1 },
    ]);
    expect(top.summary.tools).toBe(1); // c-empty and a-wipe, not b-weak
  });

  it('counts strong keys only, and a server without tools in a band of its own', () => {
    expect(weak.tools[0]!.keyArguments.map((k) => k.confidence)).toEqual(['weak']);
    expect(all.keyNames).toEqual([]);
    expect(all.bySize.find((b) => b.band === 'no tools')).toMatchObject({ servers: 1, tools: 0 });
  });

  it('weighs each verdict by the downloads of the servers that have it', () => {
    const md = censusStatsMarkdown(stats);
    // b-weak's one tool is unprotected: 50 of 200 downloads.
    expect(md).toMatch(/\| downloads of servers with unprotected tools \| 25\.0% \| 0\.0% \|/);
    expect(md).toContain('From report\\_1.json (');
  });
});

describe('skipGroup', () => {
  it('reads the group before the colon, case aside, and calls anything else other', () => {
    expect(skipGroup('Crashes on Node 20: node:sqlite')).toBe('crashes on Node 20');
    expect(skipGroup('timeout: lists nothing in 30 s')).toBe('timeout');
    expect(skipGroup('no colon here')).toBe('other');
  });

  it('knows the group of every skip in the wide census list', () => {
    const list = JSON.parse(readFileSync(new URL('../../targets/npm-census.json', import.meta.url), 'utf8')) as {
      servers: { name: string; skip?: string }[];
    };
    const skips = list.servers.filter((s) => s.skip);
    expect(skips.length).toBeGreaterThan(0);
    for (const s of skips) expect(skipGroup(s.skip!), `${s.name}: ${s.skip}`).not.toBe('other');
  });
});

describe('censusStats, by population', () => {
  const pkg = (name: string, downloads: number) => ({ transport: 'stdio' as const, npm: `${name}@1.0.0`, downloads });
  const write = [{ name: 'write', inputSchema: { type: 'object' } }];
  const read = [{ name: 'read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];
  const a = okServer('a', write, { target: pkg('a', 300) });
  const b = okServer('b', [...write, ...read], { target: pkg('b', 200) });
  // A remote with more downloads than any package: the top group must still hold packages only.
  const remote = okServer('remote', [...read, ...read, ...read], {
    target: { transport: 'http', url: 'https://example.com/mcp', downloads: 10_000 },
  });
  const skipped = [{ name: 's', source: 'list.json', reason: 'broken: exits at once' }];

  it('names the population of npm packages run on stdio, in stats.json and stats.md', () => {
    const stats = CensusStats.parse(censusStats(reportOf([a, b], { skipped }), 'report.json', 1));
    expect(stats.population).toEqual({
      entries: 3,
      skipped: 1,
      label: '3 list entries: 2 npm packages run on stdio (2 scanned ok) and 1 skipped before it ran',
      parts: [{ id: 'stdio', label: 'npm packages run on stdio', servers: 2, serversOk: 2, kinds: { npm: 2 } }],
    });
    expect(stats.groups.map((g) => [g.id, g.title, g.population])).toEqual([
      ['all', 'all 2 npm packages run on stdio, scanned ok', ['stdio']],
      ['top 1', 'the 1 most downloaded of the 2 npm packages run on stdio', ['stdio']],
    ]);
    const md = censusStatsMarkdown(stats);
    expect(md).toContain('Population: 3 list entries: 2 npm packages run on stdio (2 scanned ok) and 1 skipped');
    expect(md).toContain('| population | npm packages run on stdio | npm packages run on stdio |');
    expect(md).toContain('## all 2 npm packages run on stdio, scanned ok');
  });

  it('keeps remote servers a population of their own, never pooled into the stdio figures', () => {
    const stats = CensusStats.parse(censusStats(reportOf([a, b, remote]), 'report.json', 1));
    const by = Object.fromEntries(stats.groups.map((g) => [g.id, g]));
    expect(stats.groups.map((g) => g.id)).toEqual(['all', 'stdio', 'top 1', 'remote']);
    // `all` keeps its old meaning for existing readers: every scanned-ok server.
    expect(by['all']!.summary).toMatchObject({ serversOk: 3, tools: 6 });
    expect(by['all']!.population).toEqual(['stdio', 'remote']);
    expect(by['stdio']!.summary).toMatchObject({ serversOk: 2, tools: 3, readOnly: 1 });
    expect(by['remote']!.summary).toMatchObject({ serversOk: 1, tools: 3, readOnly: 3 });
    expect(by['top 1']!.summary.serversOk).toBe(1);
    expect(by['top 1']!.summary.tools).toBe(1); // package a, not the remote
    expect(stats.population.parts.map((p) => p.label)).toEqual([
      'npm packages run on stdio',
      'remote servers over Streamable HTTP',
    ]);
    const md = censusStatsMarkdown(stats);
    expect(md).toContain('| figure | stdio | top 1 | remote |');
    expect(md).toMatch(/\| tools annotated \(any hint\) \| 1 \(33\.3%\) \| 0 \(0\.0%\) \| 3 \(100\.0%\) \|/);
    expect(md).toContain('## 1 remote server over Streamable HTTP, scanned ok');
    expect(md).not.toContain('| figure | all');
  });
});
