// docs/DEFINITION-HASH.md. Not the `canonicalize` package: it recurses, and a server may nest 100,000 levels.
import { createHash, type Hash } from 'node:crypto';

/** `_meta`, `icons` and the rest are not hashed. */
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
  hash: string;
  /** Each field's value on its own: which fields changed, when the hash did. */
  fields: Partial<Record<DefinitionField, string>>;
}

/** Hashes taken on arrival, before the trim; a symbol, so no server can send it and no walk sees it. */
export const DEFINITION = Symbol('idemscan.definition');

export function definitionOf(raw: Record<string, unknown>): DefinitionHashes | Unhashable {
  const taken = (raw as { [DEFINITION]?: DefinitionHashes | Unhashable })[DEFINITION];
  return taken ?? definitionHashes(raw);
}

/** Per tool: far above what a 16 MiB message holds. */
const CANONICAL_WORK_LIMIT = 128 * 1024 * 1024;

export class Unhashable extends Error {}

const CHUNK = 64 * 1024;

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

/** `Unhashable` as a value for what is not JSON data (`1e400` parses to Infinity) or is too much work. */
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

/** For tests and the documented example. */
export function canonicalJson(value: unknown): string {
  let out = '';
  const sink = { write: (t: string) => (out += t) } as unknown as Sink;
  writeCanonical(value, sink, { left: CANONICAL_WORK_LIMIT });
  return out;
}

/** RFC 8785: keys sorted by UTF-16 code units, JSON.stringify's scalars; the stack holds text and containers. */
function writeCanonical(value: unknown, sink: Pick<Sink, 'write'>, budget: { left: number }): void {
  const stack: unknown[] = [];
  // Only a library caller's object can have a cycle.
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

class Close {
  constructor(
    readonly text: string,
    readonly of: object,
  ) {}
}

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
