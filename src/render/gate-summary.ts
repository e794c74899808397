/** The Action's job summary: gate matches, unscanned servers or the error line; all text mdText-escaped, bounded. */
import type { Gate, GateMatch, Report } from '../model/schema.js';
import { LIMITS } from '../model/limits.js';
import { plural } from '../model/verdicts.js';
import { mdText } from './markdown-text.js';

/** Failed servers listed on exit 3; the rest are counted. */
const FAILED_LISTED = 20;
/** Lines of the step's stderr kept with its error line (the message's own continuation lines). */
const ERROR_LINES = 5;

/** `- rules / create_widget: verdict unprotected; rules malformed-hint`. */
function matchLine(m: GateMatch): string {
  const where =
    m.tool === undefined
      ? `${mdText(m.server, 100)} (the server)`
      : `${mdText(m.server, 100)} / ${mdText(m.tool, 100)}`;
  const what = [
    ...(m.verdict ? [`verdict ${m.verdict}`] : []),
    ...(m.rules && m.rules.length > 0
      ? [`${m.rules.length === 1 ? 'rule' : 'rules'} ${m.rules.map((r) => mdText(r, 100)).join(', ')}`]
      : []),
  ];
  return `- ${where}: ${what.join('; ')}\n`;
}

/** A line per tool (and per server for its own findings), how many more, the drift; then the accepted. */
export function gateLines(gate: Gate, suppressFile?: string): string {
  const matches = gate.matches.slice(0, Math.min(gate.matched, LIMITS.gateMatches));
  const more = gate.matched - matches.length;
  const items = [
    ...matches.map(matchLine),
    ...(more > 0 ? [`- +${more} more (the JSON report has every finding and verdict)\n`] : []),
    ...(gate.drift ? ['- drift since the `--baseline` lock file (the drift is below)\n'] : []),
  ];
  let out =
    items.length > 0 ? `What the gate matched (${gate.matched + (gate.drift ? 1 : 0)}):\n\n${items.join('')}` : '';
  if (gate.accepted) {
    const by = suppressFile === undefined ? 'a suppression' : mdText(suppressFile, 100);
    out += `${out ? '\n' : ''}${plural(gate.accepted, 'tool')} accepted by ${by} (a reviewed verdict, not counted).\n`;
  }
  return out;
}

/** Why each server was not scanned (exit 3). */
function failedLines(report: Report): string {
  const failed = report.servers.filter((s) => s.status === 'failed');
  const lines = failed
    .slice(0, FAILED_LISTED)
    .map(
      (s) =>
        `- ${mdText(s.name, 100)}: ${s.failure ? `${s.failure.kind}: ${mdText(s.failure.message, 400)}` : 'failed'}\n`,
    );
  const more = failed.length - lines.length;
  return lines.join('') + (more > 0 ? `- +${more} more\n` : '');
}

/** The last `idemscan: ` or commander `error: ` line (idemscan prints it last) with its indented continuation. */
export function errorLine(stderr: string): string | undefined {
  const lines = stderr.split('\n');
  let at = -1;
  for (let i = lines.length - 1; i >= 0 && at < 0; i--)
    if (lines[i]!.startsWith('idemscan: ') || lines[i]!.startsWith('error: ')) at = i;
  if (at < 0) return undefined;
  const block = [lines[at]!];
  for (let i = at + 1; i < lines.length && block.length < ERROR_LINES && /^\s+\S/.test(lines[i]!); i++)
    block.push(lines[i]!.trim());
  return block.map((l) => mdText(l, 400)).join('\n> ');
}

export interface SummaryInput {
  /** idemscan's exit code. */
  code: number;
  /** The report it wrote, when there is one. */
  report?: Report;
  /** What it printed on stderr (its tail). */
  stderr: string;
}

/** The summary's lines between its headline and the Markdown report; empty on a pass with nothing to say. */
export function actionSummary({ code, report, stderr }: SummaryInput): string {
  const gate = report?.gate;
  if (code === 0 || code === 1) {
    const lines = gate ? gateLines(gate, report?.options.suppress?.file) : '';
    return lines ? `${lines}\n` : '';
  }
  // Exit 3 wrote its report, whose failures say more than the notes printed after it.
  if (code === 3 && report) return `${failedLines(report)}\n`;
  const error = errorLine(stderr);
  return error === undefined ? "The step's log has the output; no error line was found in it.\n\n" : `> ${error}\n\n`;
}
