/**
 * `idemscan merge A.json B.json ... [--json PATH | --out DIR] [--index ROOT] [--compare OLD|latest]`:
 * shard reports into one report (app/saved-report.ts). With `--index ROOT`, `--out` is a run
 * directory ROOT/RUN and the run's entry goes into ROOT/index.json and index.html (cli/run-index-files.ts).
 * Exit codes: 0 merged, 2 usage error, an unreadable or invalid report or index file, or reports
 * that must not be merged (different schema versions, a server in two reports).
 */
import { mergeSaved } from '../app/saved-report.js';
import { checkReportFiles, writeReports } from '../app/write-reports.js';
import { InputError } from '../model/input-error.js';
import { streamOf } from '../model/report-head.js';
import type { Report } from '../model/schema.js';
import type { Shown } from '../model/shown.js';
import { msg, show } from '../render/message.js';
import { EXIT } from './exit.js';
import { plural } from '../model/verdicts.js';
import * as say from './say.js';

interface MergeFlags {
  json?: string;
  out?: string;
  /** Parsed and checked by main.ts (listOption): file formats only. */
  format: string[];
  quiet?: boolean;
  /** `OLD.json`, or `latest`: the newest earlier run of `--index`. */
  compare?: string;
  index?: string;
}

export async function mergeCommand(files: string[], flags: MergeFlags): Promise<void> {
  // Without --out, the merged report goes to stdout.
  const reports = {
    out: flags.out,
    formats: flags.format,
    json: flags.json ?? (flags.out === undefined ? '-' : undefined),
  };
  await checkReportFiles(reports);
  // The index is read (and checked) before anything is written: a bad index.json costs no merge.
  const indexing = flags.index === undefined ? undefined : await import('./run-index-files.js');
  const run = indexing ? indexing.runDirOf(flags.index!, flags.out) : undefined;
  if (indexing) await indexing.readIndex(flags.index!);
  if (flags.compare === 'latest' && !indexing)
    throw new InputError('--compare latest needs --index ROOT (the directory of index.json)');
  const earlierOf = async (report: Report, warnings: Shown[]) => {
    if (flags.compare !== 'latest') return flags.compare;
    const found = await indexing!.latestReport(flags.index!, report, run, (w) => warnings.push(w));
    if (found === undefined)
      warnings.push(msg`--compare latest: ${show.path(flags.index!)} has no earlier run; no trend section`);
    return found;
  };
  const { report, warnings } = await mergeSaved(files, earlierOf);
  for (const w of warnings) say.warn(w);
  await writeReports(streamOf(report), reports, 'merge', { print: (t) => void process.stdout.write(t), say });
  if (indexing) await indexing.updateIndex(flags.index!, run!, report);
  const s = report.summary;
  say.note(
    msg`merged ${plural(files.length, 'report')}: ${plural(s.servers, 'server')} (${s.serversOk} ok, ${s.serversFailed} failed), ${plural(s.tools, 'tool')}`,
  );
  process.exitCode = EXIT.ok;
}
