/** Report values may come from a hostile server: they reach the page only through these, and never as names or URLs. */

import { clip } from '../../model/cut.js';
import { receivedText } from '../../model/verdicts.js';
import { visibleEscaper } from '../terminal.js';

const HTML_SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Invisible characters could disguise a name, so they show as \uXXXX escapes; tab and newline are harmless. */
export const visible: (value: string) => string = visibleEscaper(' \\t\\n');

/** Safe in element content and in a quoted attribute value: `<`, `>`, `&`, `"` and `'` are entities. */
export function text(value: unknown, max = Infinity): string {
  const s = visible(typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
  return clip(s, max).replace(HTML_SPECIAL, (c) => ENTITY[c]!);
}

/** A value as compact JSON text (for hints as received), escaped for HTML. */
export function jsonText(value: unknown, max = 120): string {
  return text(receivedText(value), max);
}

/** `<`, `>`, `&` and U+2028/2029 escaped, so nothing ends the script element and it is a valid JS string body. */
export function json(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A whole number for an attribute or a cell (never NaN or a string from the report). */
export function num(n: number): string {
  return Number.isFinite(n) ? String(Math.round(n * 100) / 100) : '0';
}

/** `<wbr>` at word joints so long names wrap but never mid-word; entities have no joints, so none is split. */
export function name(value: unknown, max = Infinity): string {
  const s = text(value, max);
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    const joint = c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2f || c === 0x3a;
    const camel = ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) && next >= 0x41 && next <= 0x5a;
    if ((joint && next !== c) || camel) {
      out += `${s.slice(from, i + 1)}<wbr>`;
      from = i + 1;
    }
  }
  return out + s.slice(from);
}
