/**
 * `idemscan report FILE.json [--format html,md] [--out DIR]`: re-render a saved report without
 * scanning again (app/saved-report.ts). The file must be a valid report (the zod `Report` schema);
 * a bad file is a usage error (exit 2) naming the file and the first fields that are wrong.
 */
import path from 'node:path';
import { rerender } from '../app/saved-report.js';
import { checkRulesBaseUrl } from '../app/output.js';
import type { LoadedReport } from '../compare/read.js';
import { InputError } from '../model/input-error.js';
import type { Report } from '../model/schema.js';
import { msg, show } from '../render/message.js';
import { outputWidth } from '../render/width.js';
import * as say from './say.js';

export interface ReportFlags {
  /** Parsed and checked by main.ts (listOption). */
  format: string[];
  out?: string;
  rulesBaseUrl?: string;
  sarifUri?: string[];
  /** An earlier report: adds the trend section (compare/trend.ts); `latest` with `index`. */
  compare?: string;
  /** The run index whose newest earlier run `--compare latest` names. */
  index?: string;
}

export async function reportCommand(file: string, flags: ReportFlags): Promise<void> {
  if (flags.rulesBaseUrl !== undefined) checkRulesBaseUrl(flags.rulesBaseUrl);
  if (flags.compare === 'latest' && flags.index === undefined)
    throw new InputError('--compare latest needs --index ROOT (the directory of index.json)');
  const sarifUris = flags.sarifUri?.length
    ? (await import('../app/sarif-uri.js')).parseSarifUris(flags.sarifUri)
    : undefined;
  const earlierOf = async (report: Report) =>
    flags.compare === 'latest' ? await latestOf(flags.index!, report, file) : flags.compare;
  const render = { rulesBaseUrl: flags.rulesBaseUrl, sarifUris, width: outputWidth(process.stdout) };
  await rerender(file, { formats: flags.format, out: flags.out, render }, earlierOf, {
    print: (text) => void process.stdout.write(text),
    say,
  });
}

/** `--compare latest`: the newest run of the index before this report (never its own run directory). */
async function latestOf(root: string, report: Report, file: string): Promise<LoadedReport | undefined> {
  const { latestReport } = await import('./run-index-files.js');
  const ownRun =
    path.resolve(path.dirname(path.dirname(path.resolve(file)))) === path.resolve(root)
      ? path.basename(path.dirname(path.resolve(file)))
      : undefined;
  const found = await latestReport(root, report, ownRun, say.warn);
  if (found === undefined) say.warn(msg`--compare latest: ${show.path(root)} has no earlier run; no trend section`);
  return found;
}
