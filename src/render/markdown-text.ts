/** Text from a server or a report file, made safe inside Markdown. */
import { safeText } from './terminal.js';

/** Escapes for a table cell, plus code spans on `@`, `#`, `:` and `www.` so GitHub makes no links or mentions. */
export function mdText(text: string, max = 200): string {
  return safeText(text, max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/[@#]|:(?=\/\/|[a-z\\+-][\w\\+-]*:)|(?<=www)\./gi, '`$&`');
}
