/** Controls could rewrite the screen and invisibles disguise names: both shown as `\uXXXX`, backslashes doubled. */
import { clip } from '../model/cut.js';

/** What a screen shows as nothing or uses to reorder text (Cs needs the v flag). */
const INVISIBLE = String.raw`\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Cs}\u2800`;

/** An escaper that shows every invisible character except those in `keep` (a class body: ` \t\n`). */
export function visibleEscaper(keep: string): (text: string) => string {
  const cls = String.raw`[[${INVISIBLE}]--[${keep}]]`;
  // One pass, linear: a character class, or a backslash followed by what would read as an escape.
  const re = new RegExp(String.raw`\\(?=u|${cls})|${cls}`, 'gv');
  return (text) => text.replace(re, (c) => (c === '\\' ? '\\\\' : codePointEscape(c)));
}

/** GitHub Actions runs lines starting `::` as workflow commands; whole outputs only. `lineStart: false` continues. */
export function noCommandLines(text: string, lineStart = true): string {
  let out = '';
  let from = 0;
  let start = lineStart ? 0 : text.indexOf('\n') + 1;
  if (start === 0 && !lineStart) return text;
  while (start <= text.length) {
    let i = start;
    while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 13)) i++;
    if (text.charCodeAt(i) === 58 && text.charCodeAt(i + 1) === 58) {
      out += `${text.slice(from, i)}\\u003a`;
      from = i + 1;
    }
    const next = text.indexOf('\n', i);
    if (next < 0) break;
    start = next + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Whether what follows `text` starts a line: only spaces, tabs or carriage returns since its last newline. */
export function endsAtLineStart(text: string, lineStart = true): boolean {
  const last = text.lastIndexOf('\n');
  if (last < 0 && !lineStart) return false;
  for (let i = last + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

function codePointEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/** Plain space is the only whitespace a terminal line keeps (tabs and newlines are escaped too). */
export const visibleText = visibleEscaper(' ');

/** Made visible, then cut to `max` (on a code point, cut.ts). */
export function safeText(text: string, max = 200): string {
  return clip(visibleText(text), max);
}

/** Lines, not one line with `\u000a`: at most `maxLines`, the rest counted. */
export function safeLines(text: string, max = 200, maxLines = 8): string[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const kept = lines.slice(0, maxLines).map((l) => safeText(l, max));
  return lines.length > maxLines ? [...kept, `(${lines.length - maxLines} more lines)`] : kept;
}
