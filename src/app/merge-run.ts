/**
 * `idemscan merge`: shard reports into one (app/saved-report.ts), written by the one writer, and
 * with `--index ROOT` the run's entry added to ROOT/index.json and index.html (app/run-index-files.ts).
 * Every file written is said (`note`), as scan says its own.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../model/input-error.js';
import { streamOf } from '../model/report-head.js';
import type { Report } from '../model/schema.js';
import { checkCompare, earlierReport } from './compare-latest.js';
import { wroteLine } from './output.js';
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
  /** `--out` may hold a run (a report.json) already: replace it. */
  replace?: boolean;
}

/**
 * A run already in `--out` (a report.json there) is kept unless `--replace` says otherwise: a merge
 * repeated on a day that has its run would replace the published run with whatever shards it got.
 */
async function checkReplace(out: string | undefined, replace: boolean | undefined): Promise<void> {
  if (out === undefined || replace) return;
  const there = await lstat(path.join(out, 'report.json')).catch(() => undefined);
  if (there === undefined || there.isDirectory()) return;
  throw new InputError(
    'holds a run already (its report.json): merge --replace replaces it; or choose another --out for this one',
    { field: '--out', file: out },
  );
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
  await checkReplace(flags.out, flags.replace);
  await checkReportFiles(reports);
  // The index is read (and checked) before anything is written: a bad index.json costs no merge.
  const root = flags.index;
  const indexing = root === undefined ? undefined : await import('./run-index.js');
  const run = indexing ? indexing.runDirOf(root!, flags.out) : undefined;
  if (indexing) await indexing.readIndex(root!);
  checkCompare(flags.compare, root);
  const earlier = earlierReport(flags.compare, root, run, io.say.note);
  const { report, warnings } = await mergeSaved(files, (r, warnings) => earlier(r, (w) => warnings.push(w)));
  for (const w of warnings) io.say.warn(w);
  const written = await writeReports(streamOf(report), reports, 'merge', io);
  for (const { dest } of written.files) io.say.note(wroteLine(dest));
  if (root !== undefined) await (await import('./run-index-files.js')).updateIndex(root, run!, report, io.say.note);
  return report;
}
