/**
 * The run index's pure parts on hand-made reports: the list a run covers and "different list",
 * the server pages' names and history, and the index page's trend chart (bounded, escaped, no script).
 */
import { describe, expect, it } from 'vitest';
import { indexOf, RunIndex, runEntry, type RunEntry } from '../../src/census/publish/index-format.js';
import { listOf } from '../../src/compare/run-list.js';
import { pageNames, ServerHistory } from '../../src/census/publish/server-history.js';
import type { Report, ServerReport } from '../../src/model/schema.js';
import { renderIndexPage } from '../../src/census/publish/index-page.js';
import { MARKED_RUNS, trendChart } from '../../src/census/publish/index-trend.js';
import { renderServerPage } from '../../src/census/publish/server-page.js';
import { okServer, reportOf } from '../helpers/reports.js';

const from = (name: string, source: string, tools: Record<string, unknown>[] = [{ name: 'w' }]): ServerReport =>
  okServer(name, tools, { target: { transport: 'stdio', source } });

const run = (day: string, servers: ServerReport[], skipped: Report['skipped'] = []): Report =>
  reportOf(servers, { startedAt: `${day}T04:00:00.000Z`, finishedAt: `${day}T04:10:00.000Z`, skipped });

const entry = (dir: string, report: Report): RunEntry => {
  const made = runEntry(dir, report, ['report.json', 'report.html']);
  if ('error' in made) throw new Error(made.error);
  return made.entry;
};

const popular = [from('a', 'targets/popular.json#servers[0]'), from('b', 'targets/popular.json#servers[1]')];

describe('the list a run covers', () => {
  it('names the target files of its servers and skipped entries, counts the entries, hashes them', () => {
    const list = listOf(run('2026-12-01', popular, [{ name: 'c', source: 'targets/popular.json', reason: 'x' }]));
    expect(list.files).toEqual(['targets/popular.json']);
    expect(list.entries).toBe(3);
    expect(list.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is the same for the same entries in another order or at other positions, and differs for other entries', () => {
    const a = listOf(run('2026-12-01', popular));
    const reordered = listOf(
      run('2026-12-08', [from('b', 'targets/popular.json#servers[0]'), from('a', 'targets/popular.json#servers[7]')]),
    );
    expect(reordered).toEqual(a);
    expect(listOf(run('2026-12-08', [popular[0]!])).hash).not.toBe(a.hash);
    expect(listOf(run('2026-12-08', [from('a', 'other.json#servers[0]'), popular[1]!])).hash).not.toBe(a.hash);
    // How the path was typed does not make another list.
    const typed = [from('a', './targets/popular.json#servers[0]'), from('b', 'targets//popular.json#servers[1]')];
    expect(listOf(run('2026-12-08', typed))).toEqual(a);
  });

  it('marks each run whose list differs from the run before it, in the index JSON', () => {
    const index = indexOf([
      entry('2026-12-15', run('2026-12-15', [from('x', 'targets/reference.json#servers[0]')])),
      entry('2026-12-01', run('2026-12-01', popular)),
      entry('2026-12-08', run('2026-12-08', popular)),
    ]);
    expect(index.runs.map((r) => [r.dir, r.differentList])).toEqual([
      ['2026-12-15', true],
      ['2026-12-08', false],
      ['2026-12-01', undefined],
    ]);
    expect(RunIndex.parse(JSON.parse(JSON.stringify(index)))).toEqual(index);
    const page = renderIndexPage(index);
    expect(page.match(/<span class="diff">different list<\/span> than the run before/g)).toHaveLength(1);
    expect(trendChart(index)).toContain('2026-12-15 covers a different list than 2026-12-08');
  });

  it('an index entry written before lists were recorded still reads, and is compared with nothing', () => {
    const { list: _none, ...old } = entry('2026-11-24', run('2026-11-24', popular));
    const parsed = RunIndex.parse({ indexVersion: '1', runs: [old] });
    const index = indexOf([...parsed.runs, entry('2026-12-01', run('2026-12-01', popular))]);
    expect(index.runs.map((r) => r.differentList)).toEqual([undefined, undefined]);
    expect(renderIndexPage(index)).toContain('<td>–</td>');
  });
});

describe('the population of a run', () => {
  const pkg = (name: string) =>
    okServer(name, [{ name: 'w' }], { target: { transport: 'stdio', npm: `${name}@1.0.0` } });
  const remote = (name: string) =>
    okServer(name, [{ name: 'r', annotations: { readOnlyHint: true } }, { name: 'r2' }], {
      target: { transport: 'http', url: 'https://example.com/mcp' },
    });

  it('names npm packages run on stdio in index.json and in the row of the page', () => {
    const index = indexOf([entry('2026-12-01', run('2026-12-01', [pkg('a'), pkg('b')]))]);
    expect(index.runs[0]!.populations).toEqual([
      { id: 'stdio', label: 'npm packages run on stdio', summary: index.runs[0]!.summary },
    ]);
    expect(RunIndex.parse(JSON.parse(JSON.stringify(index)))).toEqual(index);
    const page = renderIndexPage(index);
    expect(page).toContain('<th scope="col">population</th>');
    expect(page).toContain('<td>npm packages run on stdio</td><td class="n">2</td>');
  });

  it('gives remote servers a row of their own, their figures not pooled with the packages', () => {
    const index = indexOf([entry('2026-12-08', run('2026-12-08', [pkg('a'), remote('r'), remote('s')]))]);
    const [stdio, far] = index.runs[0]!.populations!;
    expect(index.runs[0]!.summary).toMatchObject({ servers: 3, tools: 5 }); // the run's own, unchanged
    expect([stdio!.id, stdio!.summary.servers, stdio!.summary.tools]).toEqual(['stdio', 1, 1]);
    expect([far!.label, far!.summary.servers, far!.summary.tools]).toEqual([
      'remote servers over Streamable HTTP',
      2,
      4,
    ]);
    const page = renderIndexPage(index);
    expect(page).toContain('<th scope="row" rowspan="2">');
    expect(page).toMatch(/<td>npm packages run on stdio<\/td><td class="n">1<\/td><td class="n">1<\/td>/);
    expect(page).toMatch(/<tr><td>remote servers over Streamable HTTP<\/td><td class="n">2<\/td><td class="n">2<\/td>/);
    expect(page).not.toContain('<td class="n">3</td>');
  });

  it('an index entry written before populations were recorded still reads, with one row', () => {
    const { populations: _none, ...old } = entry('2026-11-24', run('2026-11-24', popular));
    const index = RunIndex.parse({ indexVersion: '1', runs: [old] });
    expect(renderIndexPage(index).match(/<tr><th scope="row">/g)).toHaveLength(1);
  });
});

describe('server page names', () => {
  it('keep a safe lower-case name, and give anything else its safe characters and a hash', () => {
    const names = pageNames([
      'github',
      'GitHub',
      'a/b',
      'a-b',
      '../../etc/passwd',
      '.hidden',
      '',
      'x'.repeat(300),
      '<img>',
    ]);
    expect(names.get('github')).toBe('github');
    expect(names.get('a-b')).toBe('a-b');
    for (const [name, page] of names) {
      expect(page, name).toMatch(/^[a-z0-9_][a-z0-9._-]{0,100}$/);
      if (page !== name) expect(page).toMatch(/^([a-z0-9_]+-)*[0-9a-f]{8}$/);
    }
    expect(names.get('GitHub')).toMatch(/^github-[0-9a-f]{8}$/);
    expect(names.get('../../etc/passwd')).toMatch(/^etc-passwd-[0-9a-f]{8}$/);
    expect(names.get('a/b')).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(names.get('')).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(names.values()).size).toBe(names.size);
  });

  it('are the same for the same names in any order, and a clash left takes a counter', () => {
    const a = pageNames(['b', 'A', 'c/d']);
    const b = pageNames(['c/d', 'b', 'A']);
    expect([...a].sort()).toEqual([...b].sort());
    const page = pageNames(['Q'])!.get('Q')!;
    const clash = pageNames(['Q', page]);
    expect(clash.get(page)).toBe(page);
    expect(clash.get('Q')).toBe(`${page}-2`);
  });
});

describe('a server across runs', () => {
  const hostile = '<script>alert(1)</script>';
  const reports = [
    run('2026-12-01', [from(hostile, 'l.json#servers[0]', [{ name: 'w' }])]),
    run('2026-12-08', [
      from(hostile, 'l.json#servers[0]', [{ name: 'w' }, { name: 'r', annotations: { readOnlyHint: true } }]),
    ]),
    run('2026-12-15', [
      {
        ...from(hostile, 'l.json#servers[0]'),
        status: 'failed',
        failure: { kind: 'timeout', message: 'x' },
        tools: [],
      },
    ]),
  ];
  const history = new ServerHistory();
  reports.forEach((r, i) => history.add(`2026-12-${['01', '08', '15'][i]}`, r));
  const index = indexOf(reports.map((r, i) => entry(`2026-12-${['01', '08', '15'][i]}`, r)));

  it('has a row per run, newest first, with its status, tools and verdict counts, and whether definitions changed', () => {
    const rows = history.rows(hostile, index);
    expect(rows.map((r) => [r.run.dir, r.server.status, r.server.tools, r.server.counts.unprotected])).toEqual([
      ['2026-12-15', 'failed', 0, 0],
      ['2026-12-08', 'ok', 2, 1],
      ['2026-12-01', 'ok', 1, 1],
    ]);
    const page = renderServerPage(hostile, rows, 3);
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;: every run');
    expect(page).toContain('failed: timeout');
    expect(page).toContain('<b>changed</b>');
    expect(page).toContain('first run');
    expect(page).toContain('<a href="../2026-12-08/report.html">2026-12-08</a>');
    // Every row has as many cells as the table has heads.
    const count = (html: string, tag: RegExp) => (html.match(tag) ?? []).length;
    const heads = count(page.slice(page.indexOf('<thead>'), page.indexOf('</thead>')), /<th scope="col"/g);
    for (const row of page.slice(page.indexOf('<tbody>')).split('</tr>').slice(0, -1))
      expect(count(row, /<t[hd][ >]/g), row).toBe(heads);
  });

  it('is linked from the index page by its page name, its name escaped', () => {
    const page = renderIndexPage(index, [{ name: hostile, page: pageNames([hostile]).get(hostile)!, runs: 3 }]);
    expect(page).toMatch(/<a href="servers\/script-alert-1-script-[0-9a-f]{8}\.html">&lt;script&gt;/);
    expect(page).not.toMatch(/<script|https?:\/\//);
  });
});

describe('the trend chart', () => {
  const many = (n: number): RunIndex =>
    indexOf(
      Array.from({ length: n }, (_, i) => {
        const day = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
        const r = run(day, i % 2 ? popular : [popular[0]!]);
        return entry(`r${i}`, r);
      }),
    );

  it('is one inline SVG with labelled axes, a named end per series and a legend, no script', () => {
    const svg = trendChart(many(3));
    expect(svg).toContain('<svg viewBox=');
    expect(svg).toContain('run (start date, UTC)');
    expect(svg).toContain('>100%</text>');
    for (const label of ['annotated', 'unprotected', 'keyed']) expect(svg).toContain(`class="end-label t-${label}"`);
    expect(svg).toContain('<ul class="trend-key">');
    expect(svg).not.toMatch(/<script|href=|https?:\/\//);
    expect(trendChart(indexOf([]))).toBe('');
  });

  it('a thousand runs, with a thousand list changes, make well under a megabyte of page', () => {
    const index = many(1000);
    const svg = trendChart(index);
    expect(svg.length).toBeLessThan(80_000);
    expect(svg).not.toContain('<circle'.repeat(2));
    expect((svg.match(/<circle/g) ?? []).length).toBeLessThanOrEqual(1);
    expect(trendChart(many(MARKED_RUNS)).match(/<circle/g)!.length).toBe(MARKED_RUNS + 1);
    expect(renderIndexPage(index).length).toBeLessThan(1_000_000);
  });
});
