/**
 * Everything a report holds may come from an untrusted server. Every value reaches the page through
 * one of these functions: `text()` for element content and attribute values, `json()` for the embedded
 * data block. Nothing from a report is ever placed in a tag name, an attribute name, a URL, a class or
 * an id (ids are built from indexes).
 */

// Control characters, zero-width and bidi overrides could disguise a name (as on a terminal); they are
// shown as visible \uXXXX escapes. Tab and newline stay: HTML treats them as whitespace.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

const HTML_SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Makes invisible characters visible, the way the terminal reporters do. */
export function visible(value: string): string {
  return value.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Safe in element content and in a quoted attribute value: `<`, `>`, `&`, `"` and `'` are entities. */
export function text(value: unknown, max = Infinity): string {
  const s = visible(typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
  const cut = s.length > max ? `${s.slice(0, max - 1)}…` : s;
  return cut.replace(HTML_SPECIAL, (c) => ENTITY[c]!);
}

/** A value as compact JSON text (for hints as received), escaped for HTML. */
export function jsonText(value: unknown, max = 120): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return text(s, max);
}

/**
 * JSON for a `<script type="application/json">` block. `<`, `>` and `&` become \u003c, \u003e, \u0026, so
 * neither `</script>` nor `<!--` can occur in it and end or re-mode the script element; U+2028/2029
 * are escaped too, so the text is also a valid JavaScript string literal body.
 */
export function json(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A whole number for an attribute or a cell (never NaN or a string from the report). */
export function num(n: number): string {
  return Number.isFinite(n) ? String(Math.round(n * 100) / 100) : '0';
}
