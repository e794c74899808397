/**
 * The one place text is cut short. Every cut falls between code points: a surrogate pair (an
 * emoji, a CJK extension character) is kept whole or dropped whole, never split into a lone
 * surrogate, which JSON encoders, terminals and browsers show as U+FFFD or reject. Lengths are
 * counted in UTF-16 units as JavaScript counts them, so a cut may keep one unit fewer than asked.
 * Used by the report's bounds (bounds.ts), the terminal and Markdown (terminal.ts) and HTML
 * (reporters/html/escape.ts).
 */

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** The first `n` UTF-16 units, one fewer if the cut would split a surrogate pair. */
export function cutHead(text: string, n: number): string {
  if (n >= text.length) return text;
  if (n <= 0) return '';
  return text.slice(0, isHigh(text.charCodeAt(n - 1)) && isLow(text.charCodeAt(n)) ? n - 1 : n);
}

/** The last `n` UTF-16 units, one fewer if the cut would split a surrogate pair. */
export function cutTail(text: string, n: number): string {
  if (n >= text.length) return text;
  if (n <= 0) return '';
  const at = text.length - n;
  return text.slice(isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? at + 1 : at);
}

/** At most `max` units: the text, or its head and `…`. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${cutHead(text, max - 1)}…` : text;
}
