/**
 * Where the items of one array of a JSON document lie, without parsing the document or decoding
 * it: a lock file of 10,000 servers is read a server at a time (compare/lock.ts), since parsed
 * whole it held a graph several times its text. Bytes, since JSON's structure is ASCII and no
 * byte of a UTF-8 sequence is. One linear pass, strings skipped; it only locates, and the caller
 * parses (and so checks) every piece it cuts out.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN = new Set([OPEN_BRACKET, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

export interface ArrayItems {
  /** The array itself, `[` to `]` included: cut it out for the rest of the document. */
  start: number;
  end: number;
  /** Each item's bytes, whitespace around it left out. */
  items: [number, number][];
}

/**
 * The array that is member `key` of the top-level object (the last, if the key repeats, as
 * JSON.parse keeps the last), or undefined: no such member, not an array, the key written with
 * escapes. Offsets are of bytes. Text that is not JSON gives undefined or items that will not parse.
 */
export function topLevelArray(text: Uint8Array, key: string): ArrayItems | undefined {
  const quoted = Buffer.from(JSON.stringify(key), 'utf8');
  let found: ArrayItems | undefined;
  let depth = 0;
  let wanted = false; // the last top-level key was `key`, its value not yet begun
  let current: ArrayItems | undefined;
  let itemStart = -1;
  const endItem = (at: number) => {
    if (current && itemStart >= 0) current.items.push([itemStart, trimmedEnd(text, at)]);
    itemStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const inItems = current !== undefined && depth === 2;
    if (inItems && itemStart < 0 && !SPACE.has(c) && c !== COMMA && !CLOSE.has(c)) itemStart = i;
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1) wanted = end === i + quoted.length && quoted.equals(text.subarray(i, end));
      i = end - 1;
    } else if (OPEN.has(c)) {
      if (depth === 1 && wanted && c === OPEN_BRACKET) current = { start: i, end: -1, items: [] };
      wanted = false;
      depth++;
    } else if (CLOSE.has(c)) {
      depth--;
      if (current && depth === 1) {
        endItem(i);
        current.end = i + 1;
        found = current;
        current = undefined;
      }
    } else if (inItems && c === COMMA) endItem(i);
    else if (depth === 1 && c !== COLON && !SPACE.has(c) && c !== COMMA) wanted = false;
  }
  return found;
}

/** The offset just past the string that opens at `at` (or the text's end, unterminated). */
function stringEnd(text: Uint8Array, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return text.length;
}

function trimmedEnd(text: Uint8Array, before: number): number {
  let end = before;
  while (end > 0 && SPACE.has(text[end - 1]!)) end--;
  return end;
}
