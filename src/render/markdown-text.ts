/** Text from a server or a report file, made safe inside Markdown. */
import { safeText } from './terminal.js';

/** An npm package spec at the start of a word (`@scope/name@^1.2`): none of its characters needs escaping in a code span. */
const PACKAGE = /(?<![\w@./\\-])@[a-z0-9][\w.-]*\/[\w.-]*[\w-](?:@[\w.^~*+-]*[\w*])?/gi;

/** A zero-width space, as an entity: `@&#8203;x` reads as `@x` but GitHub sees no mention, issue, link or emoji. */
const BREAK = '&#8203;';

/** Escapes for a table cell, a zero-width break after `@`, `#`, a URL's `:` and `www` so GitHub makes no links or mentions. */
function escaped(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/[@#]|:(?=\/\/|[a-z\\+-][\w\\+-]*:)/gi, `$&${BREAK}`)
    .replace(/(?<=www)\./gi, `${BREAK}.`);
}

/** Server text for a Markdown line or table cell; a package name is one code span, copied as it reads. */
export function mdText(text: string, max = 200): string {
  const s = safeText(text, max);
  let out = '';
  let from = 0;
  for (const m of s.matchAll(PACKAGE)) {
    out += `${escaped(s.slice(from, m.index))}\`${m[0]}\``;
    from = m.index + m[0].length;
  }
  return out + escaped(s.slice(from));
}
