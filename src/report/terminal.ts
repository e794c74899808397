/**
 * Text from servers on a terminal: control characters (ANSI escapes, carriage returns, bells,
 * bidi overrides) could rewrite the screen or disguise a tool, so each is shown as a visible
 * escape instead of being emitted.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function safeText(text: string, max = 200): string {
  const clean = text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
