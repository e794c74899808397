/**
 * `idemscan stats REPORT [--top N] [--out DIR]`: the census statistics of a saved report, for the
 * whole census and its N most downloaded servers, as DIR/stats.json (census/stats/census-stats-schema.ts)
 * and DIR/stats.md. DIR defaults to the report's own directory (a run directory of the index).
 */
import path from 'node:path';
import { note } from './say.js';
import type { StatsFlags } from './stats-flags.js';

export async function statsCommand(file: string, flags: StatsFlags): Promise<void> {
  const { censusStatsOf } = await import('../census/stats/census-stats.js');
  const { censusStatsMarkdown } = await import('../census/stats/census-stats-md.js');
  const { writeIndexFile } = await import('../census/publish/run-index-files.js');
  const stats = await censusStatsOf(file, flags.top);
  const dir = flags.out ?? path.dirname(file);
  await writeIndexFile(path.join(dir, 'stats.json'), `${JSON.stringify(stats, null, 2)}\n`, note);
  await writeIndexFile(path.join(dir, 'stats.md'), censusStatsMarkdown(stats), note);
}
