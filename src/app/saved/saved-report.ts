/** Saved reports, each validated by compare/read.ts; no scanning code is loaded here. */
import path from 'node:path';
import { mergeReports } from '../../compare/merge.js';
import { readReportFile, type LoadedReport } from '../../compare/read.js';
import { compareWith } from '../../compare/trend.js';
import { InputError } from '../../model/input-error.js';
import { streamOf } from '../../model/report-head.js';
import type { Report } from '../../model/schema.js';
import type { Shown } from '../../model/shown.js';
import { REPORTERS } from '../../render/index.js';
import { msg } from '../../render/message.js';
import type { RenderOptions, SarifUris } from '../../render/types.js';
import { toolsCommandFor } from '../output.js';
import type { Say } from '../say.js';
import { checkReportFiles, writeReports } from '../write-reports.js';

/** A file, one read already (a run index's `latest`, with its run directory's name), or none. */
export type Earlier = string | (LoadedReport & { run?: string }) | undefined;

async function withComparison(
  report: Report,
  earlier: Exclude<Earlier, undefined>,
  reportFile?: string,
): Promise<Report> {
  const old = typeof earlier === 'string' ? await readReportFile(earlier) : earlier;
  return { ...report, comparedWith: compareWith(report, old, reportFile) };
}

export interface RerenderSettings {
  formats: string[];
  /** Default: the directory of the report. */
  out?: string;
  render: Pick<RenderOptions, 'rulesBaseUrl' | 'width'> & { sarifUris?: SarifUris };
}

export async function rerender(
  file: string,
  settings: RerenderSettings,
  earlierOf: (report: Report) => Promise<Earlier>,
  io: { print: (text: string) => void; say: Say },
): Promise<void> {
  const { report: loaded } = await readReportFile(file);
  const earlier = await earlierOf(loaded);
  const report = earlier === undefined ? loaded : await withComparison(loaded, earlier, file);
  const out = settings.out ?? path.dirname(file);
  const named = settings.formats.filter((id) => REPORTERS[id]?.fileName);
  for (const id of named)
    if (path.resolve(out, REPORTERS[id]!.fileName!) === path.resolve(file))
      throw new InputError(`--format ${id} would overwrite the input; choose another --out`, { file });
  if (named.length > 0) await checkReportFiles({ out, formats: named });
  const { sarifUris } = settings.render;
  if (sarifUris) {
    const { sarifUriWarnings } = await import('../sarif-uri.js');
    for (const w of sarifUriWarnings(
      sarifUris,
      report.servers.map((s) => s.name),
      settings.formats,
    ))
      io.say.warn(w);
  }
  const render = { ...settings.render, toolsCommand: toolsCommandFor(file) };
  await writeReports(streamOf(report), { out, formats: settings.formats }, 'report', { render, ...io });
}

export async function mergeSaved(
  files: readonly string[],
  earlierOf: (report: Report, warnings: Shown[]) => Promise<Earlier>,
): Promise<{ report: Report; warnings: Shown[] }> {
  const inputs = [];
  for (const file of files) inputs.push(await readReportFile(file));
  const merged = mergeReports(inputs);
  const warnings = merged.warnings.map((w) => msg`${w}`);
  const earlier = await earlierOf(merged.report, warnings);
  const report = earlier === undefined ? merged.report : await withComparison(merged.report, earlier);
  return { report, warnings };
}
