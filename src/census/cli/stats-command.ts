/** `idemscan stats REPORT`: the census statistics of a saved report as stats.json and stats.md. */
import path from 'node:path';
import { note } from '../../shell/say.js';
import type { StatsFlags } from './flags.js';

export async function statsCommand(file: string, flags: StatsFlags): Promise<void> {
  const { censusStatsOf } = await import('../stats/census-stats.js');
  const { censusStatsMarkdown } = await import('../stats/census-stats-md.js');
  const { writeIndexFile } = await import('../publish/run-index-files.js');
  const stats = await censusStatsOf(file, flags.top);
  const dir = flags.out ?? path.dirname(file);
  await writeIndexFile(path.join(dir, 'stats.json'), `${JSON.stringify(stats, null, 2)}\n`, note);
  await writeIndexFile(path.join(dir, 'stats.md'), censusStatsMarkdown(stats), note);
}
