/** Text from a server or a report file, made safe inside Markdown. */
import { safeText } from './terminal.js';

/**
 * Inline text, safe in a table cell or a list item. Control and invisible characters become
 * visible escapes (safeText, which also bounds the length to `max`), HTML's specials become
 * entities, and Markdown's inline specials are backslashed; block syntax (`#`, `-`, `>`) cannot
 * start a line here, so it needs nothing.
 *
 * Then what GitHub (and GitLab) turn into links and mentions: `@user`, emails, `#1`,
 * `owner/repo#1`, `https://...`, `www.`, `:emoji:`. Backslashes and entities do not stop them (the
 * mention and issue filters run on the rendered HTML), but a code span does: each `@` and `#`, a
 * `:` that starts `://` or a shortcode, and the dot of `www.` becomes a one-character code span,
 * which breaks the pattern and still reads as the same character. (A `:` before a digit is left
 * alone: timestamps have them, and only `:100:` and `:1234:` are such shortcodes.)
 */
export function mdText(text: string, max = 200): string {
  return safeText(text, max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/[@#]|:(?=\/\/|[a-z\\+-][\w\\+-]*:)|(?<=www)\./gi, '`$&`');
}
