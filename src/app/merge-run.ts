/**
 * `idemscan merge`: shard reports into one (app/saved-report.ts), written by the one writer, and
 * with `--index ROOT` the run's entry added to ROOT/index.json and index.html (app/run-index-files.ts).
 */
import { streamOf } from '../model/report-head.js';
import type { Report } from '../model/schema.js';
import { checkCompare, earlierReport } from './compare-latest.js';
import { mergeSaved } from './saved-report.js';
import type { Say } from './say.js';
import { checkReportFiles, writeReports } from './write-reports.js';

export interface MergeFlags {
  json?: string;
  out?: string;
  /** Parsed and checked by cli/main.ts (listOption): file formats only. */
  format: string[];
  /** `OLD.json`, or `latest`: the newest earlier run of `--index`. */
  compare?: string;
  index?: string;
}

/** The merged report, written where the flags say (without --out: to `print`, as `--json -`). */
export async function mergeRun(
  files: readonly string[],
  flags: MergeFlags,
  io: { print: (text: string) => void; say: Say },
): Promise<Report> {
  const reports = {
    out: flags.out,
    formats: flags.format,
    json: flags.json ?? (flags.out === undefined ? '-' : undefined),
  };
  await checkReportFiles(reports);
  // The index is read (and checked) before anything is written: a bad index.json costs no merge.
  const root = flags.index;
  const indexing = root === undefined ? undefined : await import('./run-index.js');
  const run = indexing ? indexing.runDirOf(root!, flags.out) : undefined;
  if (indexing) await indexing.readIndex(root!);
  checkCompare(flags.compare, root);
  const earlier = earlierReport(flags.compare, root, run);
  const { report, warnings } = await mergeSaved(files, (r, warnings) => earlier(r, (w) => warnings.push(w)));
  for (const w of warnings) io.say.warn(w);
  await writeReports(streamOf(report), reports, 'merge', io);
  if (root !== undefined) await (await import('./run-index-files.js')).updateIndex(root, run!, report, io.say.note);
  return report;
}
