/** What `scan` and `audit` print when done: the table or tool view, the files written; with `-q` only what failed. */
import { failureLines, wrap } from '../render/table.js';
import path from 'node:path';
import { reporter, REPORTERS } from '../render/index.js';
import { wholeReport, type ReportStream } from '../model/report-head.js';
import { msg, rendered, show } from '../render/message.js';
import { retryAdvice, summaryCounts } from '../model/verdicts.js';
import { outputWidth } from '../render/width.js';
import { toolsCommandFor } from '../app/output.js';
import { tell } from '../shell/say.js';

/**
 * The table or tool view on stdout (stderr when the JSON report goes to stdout). With `-q` only
 * the servers that failed, on stderr: they are errors, the rest is not.
 */
export async function printResult(
  report: ReportStream,
  view: 'table' | 'tools',
  opts: { quiet?: boolean; jsonToStdout?: boolean; rulesBaseUrl?: string; reportFile?: string },
): Promise<void> {
  if (opts.quiet) {
    // failureLines escape what they quote (render/table.ts).
    for (const s of report.servers())
      if (s.status === 'failed') tell(msg`${show.name(s.name)} failed: ${rendered(failureLines(s).join('; '))}`);
    return;
  }
  const stream = opts.jsonToStdout ? process.stderr : process.stdout;
  const toolsCommand = opts.reportFile === undefined ? undefined : toolsCommandFor(opts.reportFile);
  const dim = stream.isTTY === true && !process.env.NO_COLOR;
  const options = { width: outputWidth(stream), rulesBaseUrl: opts.rulesBaseUrl, toolsCommand, dim };
  const r = await reporter(view);
  // The table reads the servers one at a time; the tool view (audit: one server) gets them in memory.
  if (r.write) r.write(report, (t) => stream.write(t), options);
  else stream.write(r.render(wholeReport(report), options));
  // Under the headline's figures, what a client's user should do about them (model/verdicts.ts).
  const advice = report.summary.serversOk > 0 ? retryAdvice(summaryCounts(report.summary)) : undefined;
  if (advice) stream.write(`${wrap(`${advice}.`, options.width).join('\n')}\n`);
}

/** The JSON report file the table's pointer names: `--json PATH`, else --out's report.json when written. */
export function reportFileOf(flags: { json?: string; out: string; format: readonly string[] }): string | undefined {
  if (flags.json && flags.json !== '-') return flags.json;
  return flags.format.includes('json') ? path.join(flags.out, REPORTERS.json!.fileName!) : undefined;
}
