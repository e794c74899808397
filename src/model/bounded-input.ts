// The one parser of JSON others wrote. Depth: docs/INTERNALS.md, "Untrusted input".
/** Every recursive walk of idemscan and of node is safe far below this. */
export const MAX_JSON_DEPTH = 64;

/** 16 levels of report around server values cut at MAX_JSON_DEPTH. */
export const REPORT_DEPTH = MAX_JSON_DEPTH + 16;

export interface JsonBounds {
  /** UTF-8. */
  maxBytes: number;
  /** `[]` is 1 deep, `1` is 0. */
  maxDepth: number;
}

export type JsonResult = { value: unknown } | { error: string; why: 'size' | 'depth' | 'syntax' };

export function parseJson(text: string, bounds: JsonBounds): JsonResult {
  const bytes = Buffer.byteLength(text);
  if (bytes > bounds.maxBytes) return { error: `${bytes} bytes, above the bound of ${bounds.maxBytes}`, why: 'size' };
  const at = tooDeepAt(text, bounds.maxDepth);
  if (at >= 0) return { error: `nested deeper than ${bounds.maxDepth} levels (${position(text, at)})`, why: 'depth' };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: (err as Error).message, why: 'syntax' };
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

function tooDeepAt(text: string, max: number): number {
  if (max === Infinity) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return i;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return -1;
}

function position(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    start = nl + 1;
  }
  return `line ${line}, column ${offset - start + 1}`;
}

export type JsonExtent = { length: number } | { tooDeep: true };

/** Stops once past `maxLength` (a lower bound then), so a huge or cyclic value costs no more. */
export function jsonExtent(value: unknown, bounds: { maxDepth: number; maxLength?: number }): JsonExtent {
  const maxLength = bounds.maxLength ?? Infinity;
  let length = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0 && length <= maxLength) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') {
      length += scalarLength(v);
      continue;
    }
    if (depth + 1 > bounds.maxDepth) return { tooDeep: true };
    if (Array.isArray(v)) {
      length += 2 + Math.max(0, v.length - 1); // brackets and commas
      for (const item of v as unknown[]) stack.push([item, depth + 1]);
      continue;
    }
    const members = Object.entries(v).filter(
      ([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol',
    );
    length += 2 + Math.max(0, members.length - 1);
    for (const [k, x] of members) {
      length += JSON.stringify(k).length + 1; // "key":
      stack.push([x, depth + 1]);
    }
  }
  return { length };
}

/** In an array, JSON writes undefined, a function or a symbol as `null`. */
const scalarLength = (v: unknown): number => (JSON.stringify(v) as string | undefined)?.length ?? 4;
