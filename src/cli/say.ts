/**
 * idemscan's own lines on stderr (warnings, errors, notes), the one writer of them; a scan's
 * progress lines keep theirs (progress.ts), which draws them around the status line. Each line is
 * text render/message.ts made (`msg`), so every value in it is escaped and bounded already. `-q` is
 * known here, set once from the command's flags before its action runs (main.ts): it drops the
 * notes, never a warning or what went wrong. Light (no render/message.ts): main.ts loads it at start.
 */
import type { Shown } from '../model/shown.js';
import { noCommandLines, visibleEscaper } from '../render/terminal.js';

let quiet = false;

/** main.ts, before a command's action runs: that command's `-q` (false for those without one). */
export function setQuiet(value: unknown): void {
  quiet = value === true;
}

const put = (text: string) => void process.stderr.write(text);

/**
 * Columns a line on stderr may take: `COLUMNS`, else the terminal's; a pipe or a file has no bound
 * (a log keeps each message on one line). render/width.ts's outputWidth, repeated: this module is
 * loaded before any command and must stay light.
 */
function stderrWidth(): number {
  const columns = Number(process.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  const s = process.stderr;
  return s.isTTY && s.columns > 0 ? s.columns : Infinity;
}

/**
 * One message as lines that fit the width, continued with two spaces (every line the
 * terminal shows fits). A word longer than a line (a path, a command to copy) stays whole. The text
 * is escaped already (render/message.ts), so its characters are one column each but for wide
 * letters, which the width allows for by being a bound, not a measure. A continuation could start
 * with `::`: the lines go through noCommandLines.
 */
function fitLine(line: string, width = stderrWidth()): string {
  if (!Number.isFinite(width) || line.length <= width) return line;
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const lead = out.length === 0 ? '' : '  ';
    if (current && lead.length + current.length + 1 + word.length > width) {
      out.push(lead + current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push((out.length === 0 ? '' : '  ') + current);
  return noCommandLines(out.join('\n'));
}

const message = (text: string) => put(`${fitLine(text)}\n`);

/** `idemscan: warning: TEXT`, even with -q: the run is less than asked, or something looks like a mistake. */
export function warn(text: Shown): void {
  message(`idemscan: warning: ${text.text}`);
}

/** `idemscan: TEXT`, even with -q: what went wrong, what was not done, what is about to be done to a server. */
export function tell(text: Shown): void {
  message(`idemscan: ${text.text}`);
}

/** `idemscan: TEXT`, unless -q: what was done (wrote, found, merged, indexed). */
export function note(text: Shown): void {
  if (!quiet) message(`idemscan: ${text.text}`);
}

/** Whole lines as they are (a listing with its own prefixes and line breaks); `always`: even with -q. */
export function lines(text: Shown, always: boolean): void {
  if (always || !quiet) put(text.text);
}

/** Escapes what could rewrite the screen but keeps line breaks. */
const multiline = visibleEscaper(' \n');

/**
 * Lines of idemscan's own layout around values it did not make (a sign-in's instructions and the
 * URL to open), even with -q: escaped, line breaks kept, not cut, since a URL to open must be whole.
 */
export function block(text: string): void {
  put(`${multiline(text)}\n`);
}

/** Not the input's fault but idemscan's: said so, with the stack to report it by. */
export function bug(err: unknown): void {
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  put(`idemscan: internal error (a bug in idemscan; please report it with this text):\n${multiline(stack)}\n`);
}
