/** Text from a server or a report file, made safe inside Markdown. */
import { safeText } from './terminal.js';

/**
 * Inline text, safe in a table cell or a list item. Control characters become visible escapes
 * (safeText, which also bounds the length to `max`), HTML's specials become entities, and
 * Markdown's inline specials are backslashed; block syntax (`#`, `-`, `>`) cannot start a line
 * here, so it needs nothing.
 */
export function mdText(text: string, max = 200): string {
  return safeText(text, max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, '\\$&');
}
