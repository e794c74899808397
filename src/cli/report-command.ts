/** `idemscan report FILE.json`: re-render a saved report without scanning again. */
import { rerender } from '../app/saved/saved-report.js';
import { checkRulesBaseUrl } from '../app/output.js';
import { checkCompare, earlierReport, ownRunOf } from '../census/publish/compare-latest.js';
import type { Report } from '../model/schema.js';
import { outputWidth } from '../render/width.js';
import * as say from '../shell/say.js';

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
  checkCompare(flags.compare, flags.index);
  const sarifUris = flags.sarifUri?.length
    ? (await import('../app/sarif-uri.js')).parseSarifUris(flags.sarifUri)
    : undefined;
  const ownRun = flags.index === undefined ? undefined : ownRunOf(flags.index, file);
  const earlier = earlierReport(flags.compare, flags.index, ownRun, say.note);
  const render = { rulesBaseUrl: flags.rulesBaseUrl, sarifUris, width: outputWidth(process.stdout) };
  await rerender(file, { formats: flags.format, out: flags.out, render }, (r: Report) => earlier(r, say.warn), {
    print: (text) => void process.stdout.write(text),
    say,
  });
}
