/**
 * Saved reports as `report`, `diff` and `merge` read them: loaded and validated, with the trend
 * section of `--compare`. Not a command module; it loads no scanning code.
 */
import path from 'node:path';
import { readReportFile, ReportFileError, type LoadedReport } from '../compare/read.js';
import { compareWith } from '../compare/trend.js';
import type { Report } from '../model/schema.js';
import { safeText } from '../render/terminal.js';
import { UsageError } from './exit.js';

/**
 * A saved report for `report`, `diff` and `merge` (compare/read.ts: schemaVersion, then the zod
 * schema); a file that cannot be used is a usage error naming the file and the field.
 */
export async function loadReport(file: string): Promise<LoadedReport> {
  try {
    return await readReportFile(file);
  } catch (err) {
    if (err instanceof ReportFileError) throw new UsageError(safeText(err.message, 1_000));
    throw err;
  }
}

/** `--compare latest`: the newest run of the index before this report (never its own run directory). */
export async function latestOf(root: string, report: Report, file: string): Promise<LoadedReport | undefined> {
  const { latestReport } = await import('./run-index-files.js');
  const ownRun =
    path.resolve(path.dirname(path.dirname(path.resolve(file)))) === path.resolve(root)
      ? path.basename(path.dirname(path.resolve(file)))
      : undefined;
  const warn = (line: string) => void process.stderr.write(`idemscan: warning: ${line}\n`);
  const found = await latestReport(root, report, ownRun, warn);
  if (found === undefined) warn(`--compare latest: ${safeText(root, 300)} has no earlier run; no trend section`);
  return found;
}

/** The report with `comparedWith` set from the earlier report, a file or one read already (report and merge --compare). */
export async function withComparison(
  report: Report,
  earlier: string | LoadedReport,
  reportFile?: string,
): Promise<Report> {
  const old = typeof earlier === 'string' ? await loadReport(earlier) : earlier;
  return { ...report, comparedWith: compareWith(report, old, reportFile) };
}
