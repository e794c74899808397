/** `idemscan stats REPORT`: the census statistics of a saved report, as stats.json and stats.md. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { CensusStats } from '../../src/census/stats/census-stats-schema.js';
import { idemscan } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const servers = ['a', 'b', 'c'].map((name, i) =>
  okServer(name, [{ name: 'send', inputSchema: { type: 'object' }, annotations: { readOnlyHint: i === 0 } }], {
    target: { transport: 'stdio', command: 'node', downloads: 100 * (i + 1) },
  }),
);

it('writes stats.json and stats.md beside the report, with the top N', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-stats-'));
  const file = path.join(dir, 'report.json');
  writeFileSync(file, JSON.stringify(reportOf(servers)));
  const run = await idemscan(['stats', file, '--top', '2']);
  expect(run.exitCode, run.stderr).toBe(0);
  const stats = CensusStats.parse(JSON.parse(readFileSync(path.join(dir, 'stats.json'), 'utf8')));
  expect(stats.groups.map((g) => [g.id, g.summary.serversOk])).toEqual([
    ['all', 3],
    ['top 2', 2],
  ]);
  // The most downloaded are c and b, whose one tool is not read-only.
  expect(stats.groups[1]!.summary.unprotected).toBe(2);
  expect(readFileSync(path.join(dir, 'stats.md'), 'utf8')).toContain('| figure | all | top 2 |');
});

it('names the file of a report it cannot read, with exit 2', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-stats-'));
  const file = path.join(dir, 'report.json');
  writeFileSync(file, '{"servers": 3}');
  const run = await idemscan(['stats', file, '--out', dir]);
  expect(run.exitCode).toBe(2);
  expect(run.stderr).toContain(file);
});
