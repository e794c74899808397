/**
 * The trend section of `--compare` on saved reports (`report`, `merge`), each read and validated
 * by compare/read.ts (a bad one is a ReportFileError naming the file and the field: exit 2). Not a
 * command module; it loads no scanning code.
 */
import path from 'node:path';
import { readReportFile, type LoadedReport } from '../compare/read.js';
import { compareWith } from '../compare/trend.js';
import type { Report } from '../model/schema.js';
import { msg, show } from '../render/message.js';
import { warn } from './say.js';

/** `--compare latest`: the newest run of the index before this report (never its own run directory). */
export async function latestOf(root: string, report: Report, file: string): Promise<LoadedReport | undefined> {
  const { latestReport } = await import('./run-index-files.js');
  const ownRun =
    path.resolve(path.dirname(path.dirname(path.resolve(file)))) === path.resolve(root)
      ? path.basename(path.dirname(path.resolve(file)))
      : undefined;
  const found = await latestReport(root, report, ownRun, warn);
  if (found === undefined) warn(msg`--compare latest: ${show.path(root)} has no earlier run; no trend section`);
  return found;
}

/** The report with `comparedWith` set from the earlier report, a file or one read already (report and merge --compare). */
export async function withComparison(
  report: Report,
  earlier: string | LoadedReport,
  reportFile?: string,
): Promise<Report> {
  const old = typeof earlier === 'string' ? await readReportFile(earlier) : earlier;
  return { ...report, comparedWith: compareWith(report, old, reportFile) };
}
