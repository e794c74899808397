/** `merge`: shard reports into one, and the run added to a run index (`MergeIndex`) when there is one. */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../model/input-error.js';
import { streamOf } from '../../model/report-head.js';
import type { Report } from '../../model/schema.js';
import type { Shown } from '../../model/shown.js';
import { wroteLine } from '../output.js';
import { mergeSaved, type Earlier } from './saved-report.js';
import type { Say } from '../say.js';
import { checkReportFiles, writeReports } from '../write-reports.js';

export interface MergeSettings {
  json?: string;
  out?: string;
  format: string[];
  /** `OLD.json` (`latest` is the run index's: MergeIndex). */
  compare?: string;
  replace?: boolean;
}

/** A merge repeated on a day that has its run would replace the published run with whatever shards it got. */
async function checkReplace(out: string | undefined, replace: boolean | undefined): Promise<void> {
  if (out === undefined || replace) return;
  const there = await lstat(path.join(out, 'report.json')).catch(() => undefined);
  if (there === undefined || there.isDirectory()) return;
  throw new InputError(
    'holds a run already (its report.json): merge --replace replaces it; or choose another --out for this one',
    { field: '--out', file: out },
  );
}

/** What a run index adds to a merge (census/publish/merge-index.ts). */
export interface MergeIndex {
  /** Before anything is written: a bad index.json costs no merge. */
  check(): Promise<void>;
  earlier(report: Report, warn: (w: Shown) => void): Promise<Earlier>;
  add(report: Report): Promise<void>;
}

export async function mergeRun(
  files: readonly string[],
  flags: MergeSettings,
  io: { print: (text: string) => void; say: Say },
  index?: MergeIndex,
): Promise<Report> {
  const reports = {
    out: flags.out,
    formats: flags.format,
    json: flags.json ?? (flags.out === undefined ? '-' : undefined),
  };
  await checkReplace(flags.out, flags.replace);
  await checkReportFiles(reports);
  await index?.check();
  const earlier = index ? index.earlier : async () => flags.compare;
  const { report, warnings } = await mergeSaved(files, (r, warnings) => earlier(r, (w) => warnings.push(w)));
  for (const w of warnings) io.say.warn(w);
  const written = await writeReports(streamOf(report), reports, 'merge', io);
  for (const { dest } of written.files) io.say.note(wroteLine(dest));
  await index?.add(report);
  return report;
}
