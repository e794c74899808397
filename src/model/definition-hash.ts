/**
 * `definitionHash` (docs/DEFINITION-HASH.md): sha256 of the RFC 8785 (JCS) canonical JSON of a
 * tool's definition fields as the server sent them, before idemscan cuts or redacts anything.
 *
 * Written here rather than taken from the `canonicalize` package: that one recurses (a server may
 * nest 100,000 levels within one message) and builds the whole text as one string. This walk keeps
 * an explicit stack and streams the text into the hashes in 64 KiB pieces: linear in the size of
 * the definition (plus the sort of each object's keys), with a work bound for what is not JSON data
 * (a library caller's cyclic object).
 */
import { createHash, type Hash } from 'node:crypto';

/** The fields hashed, when present; everything else a tool entry carries (`_meta`, `icons`) is not. */
export const DEFINITION_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;
type DefinitionField = (typeof DEFINITION_FIELDS)[number];

export interface DefinitionHashes {
  /** `sha256:` and the hex digest of the canonical definition object. */
  hash: string;
  /** The same, of each present field's value on its own: which fields changed, when the hash did. */
  fields: Partial<Record<DefinitionField, string>>;
}

/**
 * Where connect/list.ts leaves the hashes of an entry it trimmed (computed before the trim, from
 * the entry as received). A symbol: no server can send it, and no walk of the entry sees it.
 */
export const DEFINITION = Symbol('idemscan.definition');

/** The hashes of a raw entry: those taken on arrival, or computed now from the entry as given. */
export function definitionOf(raw: Record<string, unknown>): DefinitionHashes | Unhashable {
  const taken = (raw as { [DEFINITION]?: DefinitionHashes | Unhashable })[DEFINITION];
  return taken ?? definitionHashes(raw);
}

/** Items pushed and characters written, at most, per tool: far above what a 16 MiB message holds. */
const CANONICAL_WORK_LIMIT = 128 * 1024 * 1024;

/** Why a definition has no hash: it is not JSON data (RFC 8785 has no text for it), or too large. */
export class Unhashable extends Error {}

const CHUNK = 64 * 1024;

/** Where canonical text goes: into the hashes that are open, 64 KiB at a time. */
class Sink {
  private buffer = '';
  private active: Hash[] = [];
  written = 0;

  use(hashes: Hash[]): void {
    this.flush();
    this.active = hashes;
  }

  write(text: string): void {
    this.written += text.length;
    this.buffer += text;
    if (this.buffer.length >= CHUNK) this.flush();
  }

  flush(): void {
    if (this.buffer === '') return;
    for (const h of this.active) h.update(this.buffer, 'utf8');
    this.buffer = '';
  }
}

const digest = (h: Hash) => `sha256:${h.digest('hex')}`;

/**
 * The hashes of a raw tool entry, or `Unhashable` (as a value) when a field is not JSON data: a
 * number that is not finite (`1e400` parses to Infinity), undefined in an array, a function, a
 * bigint, or more than CANONICAL_WORK_LIMIT of work.
 */
export function definitionHashes(raw: Record<string, unknown>): DefinitionHashes | Unhashable {
  const whole = createHash('sha256');
  const sink = new Sink();
  const budget = { left: CANONICAL_WORK_LIMIT };
  const present = DEFINITION_FIELDS.filter((f) => Object.hasOwn(raw, f) && raw[f] !== undefined).sort();
  const fields: DefinitionHashes['fields'] = {};
  try {
    sink.use([whole]);
    sink.write('{');
    for (const [i, field] of present.entries()) {
      sink.write(`${i > 0 ? ',' : ''}${JSON.stringify(field)}:`);
      const own = createHash('sha256');
      sink.use([whole, own]);
      writeCanonical(raw[field], sink, budget);
      sink.use([whole]);
      fields[field] = digest(own);
    }
    sink.write('}');
    sink.flush();
  } catch (err) {
    if (err instanceof Unhashable) return err;
    throw err;
  }
  return { hash: digest(whole), fields };
}

/** The canonical JSON text of one value, as a string (for tests and the documented example). */
export function canonicalJson(value: unknown): string {
  let out = '';
  const sink = { write: (t: string) => (out += t) } as unknown as Sink;
  writeCanonical(value, sink, { left: CANONICAL_WORK_LIMIT });
  return out;
}

/**
 * RFC 8785: objects with members sorted by the UTF-16 code units of their names, no whitespace,
 * strings and numbers as ECMAScript's JSON.stringify writes them (lowercase `\u00XX` escapes,
 * shortest round-trip numbers, -0 as 0). The stack holds output text (strings, already encoded)
 * and containers still to open.
 */
function writeCanonical(value: unknown, sink: Pick<Sink, 'write'>, budget: { left: number }): void {
  const stack: unknown[] = [];
  // The containers being written: one met again inside itself is a cycle (only a library caller's object can have one).
  const open = new Set<object>();
  const push = (v: unknown): void => {
    if (--budget.left < 0) throw new Unhashable(`more than ${CANONICAL_WORK_LIMIT} items and characters`);
    stack.push(scalarText(v) ?? v);
  };
  push(value);
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      budget.left -= item.length;
      if (budget.left < 0) throw new Unhashable(`more than ${CANONICAL_WORK_LIMIT} items and characters`);
      sink.write(item);
    } else if (item instanceof Close) {
      sink.write(item.text);
      open.delete(item.of);
    } else if (open.has(item as object)) {
      throw new Unhashable('a cycle');
    } else if (Array.isArray(item)) {
      open.add(item);
      sink.write('[');
      stack.push(new Close(']', item));
      for (let i = item.length - 1; i >= 0; i--) {
        if (item[i] === undefined) throw new Unhashable('undefined in an array');
        push(item[i]);
        if (i > 0) stack.push(',');
      }
    } else {
      const obj = item as Record<string, unknown>;
      // Object.keys: own enumerable string keys, "__proto__" included when JSON.parse made one.
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      open.add(obj);
      sink.write('{');
      stack.push(new Close('}', obj));
      for (let i = keys.length - 1; i >= 0; i--) {
        push(obj[keys[i]!]);
        stack.push(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`);
      }
    }
  }
}

/** The end of a container on the stack: writes `text` and closes `of`. */
class Close {
  constructor(
    readonly text: string,
    readonly of: object,
  ) {}
}

/** The text of a scalar, undefined for a container; Unhashable for what JSON cannot hold. */
function scalarText(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw new Unhashable(`the number ${String(v)} has no JSON text`);
      return JSON.stringify(v);
    case 'object':
      return undefined;
    default:
      throw new Unhashable(`a ${typeof v} is not JSON data`);
  }
}
