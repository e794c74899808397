/**
 * The behaviour table on the census index, through the built CLI: `idemscan index ROOT` with a
 * ROOT/behaviour/behaviour.json (what `probe-census` writes) shows the table's section on
 * ROOT/index.html, linking behaviour/behaviour.html; a corrupt or invalid table is a warning naming
 * the file and costs the section only; `merge --index` keeps the section on the page it rewrites.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { idemscan } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const FIXTURE = new URL('../fixtures/behaviour/table.json', import.meta.url);
const SECTION = '<section id="behaviour"';

/** A ROOT with one run directory and, when given, ROOT/behaviour/behaviour.json holding `table`. */
function rootWith(table?: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bt-index-'));
  const report = reportOf([okServer('notes', [{ name: 'add' }])], {
    startedAt: '2026-12-07T04:00:00.000Z',
    finishedAt: '2026-12-07T04:10:00.000Z',
  });
  mkdirSync(path.join(root, '2026-12-07'));
  writeFileSync(path.join(root, '2026-12-07', 'report.json'), JSON.stringify(report));
  if (table !== undefined) {
    mkdirSync(path.join(root, 'behaviour'));
    writeFileSync(path.join(root, 'behaviour', 'behaviour.json'), table);
  }
  return root;
}

const page = (root: string) => readFileSync(path.join(root, 'index.html'), 'utf8');

describe('the behaviour table on the census index', () => {
  it('shows its section, escaped, linking the table page, when ROOT/behaviour/behaviour.json is a table', async () => {
    const root = rootWith(readFileSync(FIXTURE, 'utf8'));
    const r = await idemscan(['index', root]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
    const html = page(root);
    expect(html).toContain(SECTION);
    expect(html).toContain('<a href="behaviour/behaviour.html">the whole table</a>');
    expect(html).toContain(
      'Of 6 experiments on 3 servers (1 more could not be probed), 2 agree with what the tool declares',
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/<wbr>script&gt;');
    expect(html).not.toMatch(/<script/);
    // The runs are indexed as before.
    expect(html).toContain('<a href="2026-12-07/report.json">report.json</a>');
  });

  it('without a table the page has no section, and says nothing about it', async () => {
    const root = rootWith();
    const r = await idemscan(['index', root]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(page(root)).not.toContain(SECTION);
    expect(r.stderr).not.toContain('warning');
  });

  it('a corrupt or invalid table is a warning naming the file and the field; the index is written without it', async () => {
    const cases = [
      ['{"kind": "idemscan-behaviour", ', 'not valid JSON'],
      [JSON.stringify({ ...JSON.parse(readFileSync(FIXTURE, 'utf8')), rows: [{ tool: 1 }] }), 'rows[0]'],
    ] as const;
    for (const [text, why] of cases) {
      const root = rootWith(text);
      const r = await idemscan(['index', root]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `warning: skipped ${path.join(root, 'behaviour', 'behaviour.json')}: left off the index page`,
      );
      expect(r.stderr).toContain(why);
      expect(page(root)).not.toContain(SECTION);
      expect(page(root)).toContain('<a href="2026-12-07/report.json">report.json</a>');
    }
  });

  it('merge --index keeps the section on the index page it rewrites', async () => {
    const root = rootWith();
    mkdirSync(path.join(root, 'behaviour'));
    copyFileSync(FIXTURE, path.join(root, 'behaviour', 'behaviour.json'));
    const shard = path.join(root, 'shard.json');
    writeFileSync(
      shard,
      JSON.stringify(
        reportOf([okServer('notes', [{ name: 'add' }])], {
          startedAt: '2026-12-14T04:00:00.000Z',
          finishedAt: '2026-12-14T04:10:00.000Z',
        }),
      ),
    );
    const r = await idemscan(['merge', shard, '--out', path.join(root, '2026-12-14'), '--index', root]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(page(root)).toContain(SECTION);
    expect(page(root)).toContain('<a href="2026-12-14/report.json">report.json</a>');

    // A table gone bad since: the merge still indexes its run, says so, and drops the section.
    writeFileSync(path.join(root, 'behaviour', 'behaviour.json'), '[1, 2');
    const again = await idemscan([
      'merge',
      shard,
      '--out',
      path.join(root, '2026-12-14'),
      '--index',
      root,
      '--replace',
    ]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `left the behaviour table ${path.join(root, 'behaviour', 'behaviour.json')} off the index page: not valid JSON`,
    );
    expect(page(root)).not.toContain(SECTION);
    expect(page(root)).toContain('<a href="2026-12-14/report.json">report.json</a>');
  });
});
