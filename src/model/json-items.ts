// A 10,000-server lock parsed whole holds a graph several times its text: this locates, the caller parses.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const OPEN = new Set([OPEN_BRACKET, OPEN_BRACE]);
const CLOSE = new Set([0x5d, 0x7d]);
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const UTF8 = new TextDecoder();

export interface ArrayItems {
  /** `[` to `]` included. */
  start: number;
  end: number;
  /** A missing item (`[1,,2]`) is an empty piece, which no parse accepts. */
  items: [number, number][];
}

/** Byte offsets; a key held twice however spelled is `{ duplicate }`: readers disagree on which wins. */
export function topLevelArray(text: Uint8Array, key: string): ArrayItems | { duplicate: string } | undefined {
  const keys = new Set<string>();
  let found: ArrayItems | undefined;
  let depth = 0;
  let object = false; // the document is an object: at depth 1, a string after `{` or `,` is a key
  let expectKey = false;
  let wanted = false; // the last top-level key was `key`, its value not yet begun
  let current: ArrayItems | undefined;
  let itemStart = -1;
  const endItem = (at: number, comma: boolean) => {
    if (!current) return;
    if (itemStart >= 0) current.items.push([itemStart, trimmedEnd(text, at)]);
    else if (comma || current.items.length > 0) current.items.push([at, at]);
    itemStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const inItems = current !== undefined && depth === 2;
    if (inItems && itemStart < 0 && !SPACE.has(c) && c !== COMMA && !CLOSE.has(c)) itemStart = i;
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1 && expectKey) {
        const name = decoded(text, i, end);
        if (name !== undefined && keys.has(name)) return { duplicate: name };
        if (name !== undefined) keys.add(name);
        wanted = name === key;
        expectKey = false;
      } else if (depth === 1) wanted = false;
      i = end - 1;
    } else if (OPEN.has(c)) {
      if (depth === 0) object = c === OPEN_BRACE;
      if (depth === 0) expectKey = object;
      if (depth === 1 && wanted && c === OPEN_BRACKET) current = { start: i, end: -1, items: [] };
      wanted = false;
      depth++;
    } else if (CLOSE.has(c)) {
      depth--;
      if (current && depth === 1) {
        endItem(i, false);
        current.end = i + 1;
        found = current;
        current = undefined;
      }
      if (depth === 0) break; // the document's value ends: what follows is not JSON, and the caller's parse says so
    } else if (inItems && c === COMMA) endItem(i, true);
    else if (depth !== 1 || c === COLON || SPACE.has(c)) continue;
    else if (c === COMMA) expectKey = object;
    else wanted = false;
  }
  return found;
}

function decoded(text: Uint8Array, at: number, end: number): string | undefined {
  try {
    const value: unknown = JSON.parse(UTF8.decode(text.subarray(at, end)));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

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
