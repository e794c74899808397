/**
 * What `scan` and `audit` print when the scan is done: the table (or audit's tool view) at the
 * terminal's width, the files written, and with `-q` only what went wrong.
 */
import path from 'node:path';
import { bounded } from '../report/bounds.js';
import { failureLines } from '../report/reporters/table.js';
import { reporter } from '../report/reporters/index.js';
import type { Report } from '../report/schema.js';
import { safeText } from '../report/terminal.js';
import { retryAdvice, summaryCounts } from '../report/verdicts.js';
import { outputWidth } from '../report/width.js';

/**
 * The table or tool view on stdout (stderr when the JSON report goes to stdout). With `-q` only
 * the servers that failed, on stderr: they are errors, the rest is not.
 */
export async function printResult(report: Report, view: 'table' | 'tools', opts: { quiet?: boolean; jsonToStdout?: boolean; rulesBaseUrl?: string; reportFile?: string }): Promise<void> {
  if (opts.quiet) {
    for (const s of report.servers.filter((x) => x.status === 'failed')) {
      process.stderr.write(`idemscan: ${safeText(s.name, 80)} failed: ${failureLines(s).join('; ')}\n`);
    }
    return;
  }
  const stream = opts.jsonToStdout ? process.stderr : process.stdout;
  const toolsCommand = opts.reportFile === undefined ? undefined : toolsCommandFor(opts.reportFile);
  stream.write((await reporter(view)).render(report, { width: outputWidth(stream), rulesBaseUrl: opts.rulesBaseUrl, toolsCommand }));
  // Under the headline's figures, what a client's user should do about them (report/verdicts.ts).
  const advice = report.summary.serversOk > 0 ? retryAdvice(summaryCounts(report.summary)) : undefined;
  if (advice) stream.write(`${advice}.\n`);
}

/** `idemscan report output/report.json --format tools`, the path as wroteLine shows it, quoted for a shell. */
export function toolsCommandFor(reportFile: string): string {
  return `idemscan report ${shellWord(safeText(shownPath(reportFile), 300))} --format tools`;
}

/**
 * A word as a POSIX shell reads it back, as targets/npm.ts quotes install hints; not imported from
 * there, since `report` would then load the sandbox and installer to print a table.
 */
function shellWord(word: string): string {
  let plain = word.length > 0;
  for (const c of word) if (!/[\w./:@%+=,-]/.test(c)) plain = false;
  return plain ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function shownPath(dest: string): string {
  const rel = path.relative(process.cwd(), path.resolve(dest));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(dest);
}

/** `idemscan: wrote output/report.json` (relative to the working directory when under it). */
export function wroteLine(dest: string): string {
  return `idemscan: wrote ${safeText(shownPath(dest), 300)}\n`;
}

/**
 * After the wrote lines, when no HTML was written: how to get the page from the JSON just written
 * (the default scan writes only report.json). Undefined when HTML was written or no JSON file was.
 */
export function htmlHint(written: readonly { dest: string; id: string }[], command: 'scan' | 'audit' | 'lock'): string | undefined {
  if (written.some((f) => f.id === 'html')) return undefined;
  const json = written.find((f) => f.id === 'json');
  if (!json) return undefined;
  const shown = wroteLine(json.dest).slice('idemscan: wrote '.length, -1);
  return `idemscan: for the HTML report to open in a browser: idemscan report ${shown} --format html (or ${command} with --format json,html)\n`;
}

/**
 * `audit` without `--name`: the server is named by what it calls itself (serverInfo.name), not by
 * the command that started it (`node`, `npx`) or the URL's host. Already redacted and bounded.
 */
export function nameFromServerInfo(report: Report): Report {
  const servers = report.servers.map((s) => {
    const own = s.serverInfo?.name?.trim();
    return own ? { ...s, name: bounded(own, 100) } : s;
  });
  return { ...report, servers };
}
