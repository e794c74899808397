/** idemscan's own stderr lines, already escaped by `msg`; `-q` drops the notes, never a warning or an error. */
import type { Shown } from '../model/shown.js';
import { noCommandLines, visibleEscaper } from '../render/terminal.js';

let quiet = false;

export function setQuiet(value: unknown): void {
  quiet = value === true;
}

const put = (text: string) => void process.stderr.write(text);

/** render/width.ts's outputWidth, repeated to keep start-up light: a pipe or a file has no bound. */
function stderrWidth(): number {
  const columns = Number(process.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  const s = process.stderr;
  return s.isTTY && s.columns > 0 ? s.columns : Infinity;
}

/** Wrapped to the width, continued with two spaces; a word longer than a line (a path) stays whole. */
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

/** Even with -q, escaped but not cut: a sign-in's URL to open must be whole. */
export function block(text: string): void {
  put(`${multiline(text)}\n`);
}

export function bug(err: unknown): void {
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  put(`idemscan: internal error (a bug in idemscan; please report it with this text):\n${multiline(stack)}\n`);
}
