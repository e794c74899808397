/**
 * Publishing weekly through the built CLI: `merge --out ROOT/RUN --index ROOT` keeps
 * ROOT/index.json and index.html, `--compare latest` finds the newest earlier run (never its own),
 * `index ROOT --readme` writes the census block, and a hand-edited index.json is untrusted input.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunIndex } from '../../src/census/publish/index-format.js';
import { Report } from '../../src/model/schema.js';
import { idemscan } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-index-'));
const at = (...p: string[]) => path.join(dir, ...p);
const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

const pay = { name: 'pay', inputSchema: { type: 'object', properties: { amount: { type: 'number' } } } };
const payKeyed = {
  ...pay,
  inputSchema: { type: 'object', properties: { amount: { type: 'number' }, idempotency_key: { type: 'string' } } },
};
const week = (day: string, tools: Record<string, unknown>[]) =>
  reportOf([okServer('payments', tools), okServer('notes', [{ name: 'list', annotations: { readOnlyHint: true } }])], {
    startedAt: `${day}T04:00:00.000Z`,
    finishedAt: `${day}T04:10:00.000Z`,
  });
write(at('w1.json'), week('2026-12-07', [pay]));
write(at('w2.json'), week('2026-12-14', [payKeyed]));
write(at('w3.json'), week('2026-12-21', [payKeyed]));

/** `merge SHARD --out RUN --index ROOT --compare latest`, then `extra`. */
/** `report RUN --index ROOT --compare latest --format md --out OUT`: a run's Markdown with its trend. */
const reportCompareLatest = (report: string, root: string, out: string) =>
  idemscan(['report', report, '--index', root, '--compare', 'latest', '--format', 'md', '--out', out]);
const mergeRun = (shard: string, run: string, root: string, extra: string[] = []) =>
  idemscan(['merge', shard, '--out', run, '--index', root, '--compare', 'latest', ...extra]);

describe('merge --index and --compare latest', () => {
  const root = at('eco');

  it('builds the index run by run, newest first, and compares each run with the one before', async () => {
    const first = await mergeRun(at('w1.json'), path.join(root, '2026-12-07'), root);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain('has no earlier run; no trend section');
    expect(Report.parse(read(path.join(root, '2026-12-07', 'report.json'))).comparedWith).toBeUndefined();

    const second = await mergeRun(at('w2.json'), path.join(root, '2026-12-14'), root, ['--format', 'json,html,md']);
    expect(second.exitCode, second.stderr).toBe(0);
    // Said after each merge, so that a trial merged into a published root is seen at once.
    expect(second.stderr).toContain(`2026-12-14 is now the newest run of the index ${root}`);
    const index = RunIndex.parse(read(path.join(root, 'index.json')));
    expect(index.runs.map((r) => [r.dir, r.date, r.summary.keyed, r.summary.unprotected])).toEqual([
      ['2026-12-14', '2026-12-14', 1, 0],
      ['2026-12-07', '2026-12-07', 0, 1],
    ]);
    expect(index.runs[0]!.files).toEqual(['report.json', 'report.html', 'report.md']);
    const report = Report.parse(read(path.join(root, '2026-12-14', 'report.json')));
    expect(report.comparedWith?.startedAt).toBe('2026-12-07T04:00:00.000Z');

    const page = readFileSync(path.join(root, 'index.html'), 'utf8');
    expect(page).toContain('<a href="2026-12-14/report.html">2026-12-14</a>');
    expect(page).toContain('<a href="2026-12-07/report.json">report.json</a>');
    expect(page).not.toMatch(/<script|https?:\/\//);

    // Which run "latest" was is said, and stored as the run's name and its path under the index.
    expect(second.stderr).toContain(
      `--compare latest: comparing with the run ${path.join(root, '2026-12-07')} (started 2026-12-07T04:00:00.000Z)`,
    );
    expect(report.comparedWith).toMatchObject({
      file: 'report.json',
      run: '2026-12-07',
      path: '2026-12-07/report.json',
    });
    // Every file merge wrote is said, the index's too.
    for (const f of ['report.json', 'report.html', 'report.md'])
      expect(second.stderr).toContain(`wrote ${path.join(root, '2026-12-14', f)}`);
    expect(second.stderr).toContain(`wrote ${path.join(root, 'index.json')}`);
    const trendMd = readFileSync(path.join(root, '2026-12-14', 'report.md'), 'utf8');
    expect(trendMd).toMatch(/Compared with the 2026-12-07 run of .* \(2026-12-07\/report\.json\) over/);
    expect(readFileSync(path.join(root, '2026-12-14', 'report.html'), 'utf8')).toMatch(
      /Compared with the 2026-12-07 run of [^<]* \(<code>2026-12-07\/report\.json<\/code>\) over/,
    );

    // The same merge again (a re-run of the job, or a shard's report alone) does not replace the run
    // that is there: exit 2 naming the directory and --replace, nothing written.
    const before = readFileSync(path.join(root, '2026-12-14', 'report.json'), 'utf8');
    const refused = await mergeRun(at('w1.json'), path.join(root, '2026-12-14'), root);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`--out ${path.join(root, '2026-12-14')}: holds a run already (its report.json)`);
    expect(refused.stderr).toContain('merge --replace replaces it');
    expect(readFileSync(path.join(root, '2026-12-14', 'report.json'), 'utf8')).toBe(before);
    // With --replace: one entry, still compared with the week before (never with itself).
    const again = await mergeRun(at('w2.json'), path.join(root, '2026-12-14'), root, ['--replace']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(RunIndex.parse(read(path.join(root, 'index.json'))).runs).toHaveLength(2);
    expect(Report.parse(read(path.join(root, '2026-12-14', 'report.json'))).comparedWith?.startedAt).toBe(
      '2026-12-07T04:00:00.000Z',
    );

    // report --compare latest finds the same earlier run.
    const md = await reportCompareLatest(path.join(root, '2026-12-14', 'report.json'), root, at('md'));
    expect(md.exitCode, md.stderr).toBe(0);
    expect(readFileSync(at('md', 'report.md'), 'utf8')).toContain('## Trend since');

    // index ROOT rebuilds the same list from the run directories, and writes the census block.
    writeFileSync(at('README.md'), '# x\n\n<!-- census:start -->\nold figures\n<!-- census:end -->\n\nafter\n');
    const rebuilt = await idemscan(['index', root, '--readme', at('README.md')]);
    expect(rebuilt.exitCode, rebuilt.stderr).toBe(0);
    expect(RunIndex.parse(read(path.join(root, 'index.json')))).toEqual(index);
    const readme = readFileSync(at('README.md'), 'utf8');
    expect(readme).toContain('## Ecosystem census, 2026-12-14');
    expect(readme).toContain('| 2 | 2 | 1 | 1 | 0 | 0 | 0 | 0 | 1 (50%) | 0 |');
    expect(readme).toContain('[2026-12-07 run](eco/2026-12-07/)');
    expect(readme).not.toContain('old figures');
    expect(readme.endsWith('<!-- census:end -->\n\nafter\n')).toBe(true);
  });

  it('flags a run over a different list (JSON, page, README block) and writes a page per server across runs', async () => {
    const root = at('lists');
    const listed = (day: string, file: string, names: string[]) =>
      reportOf(
        names.map((n) =>
          okServer(n, [pay], { target: { transport: 'stdio', command: 'node', source: `${file}#servers[0]` } }),
        ),
        { startedAt: `${day}T04:00:00.000Z`, finishedAt: `${day}T04:10:00.000Z` },
      );
    write(at('l1.json'), listed('2026-12-07', 'targets/popular.json', ['payments', 'Notes/<b>']));
    write(at('l2.json'), listed('2026-12-14', 'targets/popular.json', ['payments', 'Notes/<b>']));
    write(at('l3.json'), listed('2026-12-21', 'targets/reference.json', ['payments']));
    for (const [file, day] of [
      ['l1.json', '2026-12-07'],
      ['l2.json', '2026-12-14'],
      ['l3.json', '2026-12-21'],
    ] as const) {
      const r = await mergeRun(at(file), path.join(root, day), root, ['--format', 'json,html']);
      expect(r.exitCode, r.stderr).toBe(0);
      // Every server of every run so far: the third run's list has one, the first two's the other.
      expect(r.stderr).toContain('wrote 2 server pages in');
    }
    const index = RunIndex.parse(read(path.join(root, 'index.json')));
    expect(index.runs.map((r) => [r.dir, r.list?.files, r.list?.entries, r.differentList])).toEqual([
      ['2026-12-21', ['targets/reference.json'], 1, true],
      ['2026-12-14', ['targets/popular.json'], 2, false],
      ['2026-12-07', ['targets/popular.json'], 2, undefined],
    ]);
    const page = readFileSync(path.join(root, 'index.html'), 'utf8');
    expect(page.match(/<span class="diff">different list<\/span> than the run before/g)).toHaveLength(1);
    expect(page).toContain('<svg viewBox=');
    expect(page).toContain('2026-12-21 covers a different list than 2026-12-14');
    expect(page).not.toMatch(/<script|Notes\/<b>|https?:\/\//);

    // One page per server, linked from the index; the untrusted name makes no path and is escaped.
    const link = /<a href="servers\/(notes-b-[0-9a-f]{8})\.html">Notes\/&lt;b&gt;<\/a> \(2\)/.exec(page);
    expect(link, page).not.toBeNull();
    const notes = readFileSync(path.join(root, 'servers', `${link![1]}.html`), 'utf8');
    expect(notes).toContain('Notes/&lt;b&gt;: every run');
    expect(notes).toContain('in 2 of 3 runs');
    const payments = readFileSync(path.join(root, 'servers', 'payments.html'), 'utf8');
    expect(payments.match(/<tr><th scope="row"><a href="\.\.\/2026-12-\d\d\/report\.html">/g)).toHaveLength(3);
    expect(payments).toContain('<span class="diff">different list</span>');

    // index ROOT rebuilds the same files from the reports, and the README block says "different list".
    writeFileSync(at('README-lists.md'), '<!-- census:start -->\n<!-- census:end -->\n');
    const l4 = { ...listed('2026-12-28', 'targets/popular.json', ['payments']), comparedWith: undefined };
    write(at('l4.json'), l4);
    const merged = await mergeRun(at('l4.json'), path.join(root, '2026-12-28'), root);
    expect(merged.exitCode, merged.stderr).toBe(0);
    const rebuilt = await idemscan(['index', root, '--readme', at('README-lists.md')]);
    expect(rebuilt.exitCode, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toContain('wrote 2 server pages in');
    expect(RunIndex.parse(read(path.join(root, 'index.json'))).runs[0]!.differentList).toBe(true);
    expect(readFileSync(at('README-lists.md'), 'utf8')).toContain(
      'also in the [2026-12-21 run](lists/2026-12-21/) (a different list: only the servers in both are compared)',
    );
  });

  it('refuses --compare latest without --index, and an --out that is not a run directory of the index', async () => {
    const noIndex = await idemscan(['merge', at('w1.json'), '--out', at('x'), '--compare', 'latest']);
    expect(noIndex.exitCode).toBe(2);
    expect(noIndex.stderr).toContain('--compare latest needs --index ROOT');
    const report = await idemscan(['report', at('w1.json'), '--compare', 'latest', '--format', 'md', '--out', at('y')]);
    expect(report.exitCode).toBe(2);
    const outside = await idemscan([
      'merge',
      at('w1.json'),
      '--out',
      at('elsewhere', '2026-12-07'),
      '--index',
      at('eco2'),
    ]);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('is not a run directory right under --index');
    // ROOT/servers/ holds the server pages: no run may be written there.
    const pages = await idemscan(['merge', at('w1.json'), '--out', at('eco', 'servers'), '--index', at('eco')]);
    expect(pages.exitCode).toBe(2);
    expect(pages.stderr).toContain('is not a run directory right under --index');
    // Nor ROOT/behaviour/, where probe-census publishes the behaviour table.
    const table = await idemscan(['merge', at('w1.json'), '--out', at('eco', 'behaviour'), '--index', at('eco')]);
    expect(table.exitCode).toBe(2);
    expect(table.stderr).toContain('is not a run directory right under --index');
    const noReadme = await idemscan(['index', at('eco'), '--readme', at('w1.json')]);
    expect(noReadme.exitCode).toBe(2);
    expect(noReadme.stderr).toContain('no <!-- census:start --> ... <!-- census:end --> block');
  });

  it.each([
    ['a run directory that leaves the index', { dir: '../../etc', files: ['report.json'] }, 'runs[0].dir'],
    ['markup in a name', { dir: '<img src=x onerror=alert(1)>', files: ['report.json'] }, 'runs[0].dir'],
    ['a file that is no report file', { dir: '2026-12-01', files: ['javascript:alert(1)'] }, 'runs[0].files[0]'],
    [
      'a startedAt that is no date',
      { dir: '2026-12-01', files: ['report.json'], startedAt: 'not a date' },
      'runs[0].startedAt',
    ],
  ])(
    'a hand-edited index.json with %s is a usage error naming the field, before anything is written',
    async (_what, bad, field) => {
      const root = at(`hostile-${field.length}-${bad.dir.length}`);
      mkdirSync(root, { recursive: true });
      const entry = {
        date: '2026-12-01',
        startedAt: '2026-12-01T00:00:00.000Z',
        finishedAt: '2026-12-01T00:00:01.000Z',
        toolVersion: '0.1.0',
        summary: RunIndex.shape.runs.element.shape.summary.parse({
          servers: 0,
          serversOk: 0,
          serversFailed: 0,
          tools: 0,
          readOnly: 0,
          notReadOnly: 0,
          annotated: 0,
          protocolKeyed: 0,
          keyed: 0,
          idempotent: 0,
          unprotected: 0,
        }),
        skipped: 0,
        ...bad,
      };
      write(path.join(root, 'index.json'), { indexVersion: '1', runs: [entry] });
      const r = await idemscan([
        'merge',
        at('w1.json'),
        '--out',
        path.join(root, '2026-12-07'),
        '--index',
        root,
        '--compare',
        'latest',
      ]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`index.json: invalid run index: ${field}`);
      expect(existsSync(path.join(root, '2026-12-07', 'report.json'))).toBe(false);
      expect(existsSync(path.join(root, 'index.html'))).toBe(false);
    },
  );

  it('a run whose report.json has a startedAt that is no date is skipped, naming the file; the good run is used', async () => {
    const root = at('malformed');
    const bad = path.join(root, '2026-12-14', 'report.json');
    mkdirSync(path.join(root, '2026-12-07'), { recursive: true });
    mkdirSync(path.dirname(bad), { recursive: true });
    write(path.join(root, '2026-12-07', 'report.json'), week('2026-12-07', [pay]));
    write(bad, { ...week('2026-12-14', [payKeyed]), startedAt: 'not a date' });

    // index: was a zod error (exit 2, nothing written).
    const indexed = await idemscan(['index', root]);
    expect(indexed.exitCode, indexed.stderr).toBe(0);
    expect(indexed.stderr).toContain(`warning: skipped ${bad}: invalid report: startedAt: Invalid ISO datetime`);
    const index = RunIndex.parse(read(path.join(root, 'index.json')));
    expect(index.runs.map((r) => r.dir)).toEqual(['2026-12-07']);
    expect(existsSync(path.join(root, 'index.html'))).toBe(true);

    // An index that lists the bad run as the newest (written before, or by hand): --compare latest
    // skips it, naming the file, and compares with the run before it.
    const listed = { ...index.runs[0]!, dir: '2026-12-14', date: '2026-12-14', startedAt: '2026-12-14T04:00:00.000Z' };
    write(path.join(root, 'index.json'), { indexVersion: '1', runs: [listed, ...index.runs] });
    const merged = await mergeRun(at('w3.json'), path.join(root, '2026-12-21'), root);
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect(merged.stderr).toContain(`--compare latest: skipped ${bad}: invalid report: startedAt`);
    const report = Report.parse(read(path.join(root, '2026-12-21', 'report.json')));
    expect(report.comparedWith?.startedAt).toBe('2026-12-07T04:00:00.000Z');
    expect(RunIndex.parse(read(path.join(root, 'index.json'))).runs.map((r) => r.dir)).toEqual([
      '2026-12-21',
      '2026-12-14',
      '2026-12-07',
    ]);

    const md = await reportCompareLatest(path.join(root, '2026-12-21', 'report.json'), root, at('md-malformed'));
    expect(md.exitCode, md.stderr).toBe(0);
    expect(md.stderr).toContain(`--compare latest: skipped ${bad}: invalid report: startedAt`);
    expect(readFileSync(at('md-malformed', 'report.md'), 'utf8')).toContain('## Trend since');
  });
});
