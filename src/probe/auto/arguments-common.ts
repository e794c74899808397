// What the argument makers share. The schema is the server's (untrusted): docs/INTERNALS.md, "Untrusted input".
import { clip } from '../../model/cut.js';
import { LIMITS } from '../../model/limits.js';

export const ARGUMENT_BOUNDS = {
  /** Levels of objects, arrays and `anyOf` branches below the arguments. */
  depth: 16,
  /** Values made for one tool, the arguments object included. */
  values: 200,
  /** `$ref` hops and `allOf` merges for one value; a cycle ends here. */
  schemaHops: 64,
  /** Everything looked at for one tool: hops, `allOf` and `anyOf` branches. */
  steps: 5_000,
  /** Properties of one object looked at for an optional key; the required ones are all made. */
  keyScan: 1_000,
  stringChars: 1_000,
  arrayItems: 16,
  /** A longer `pattern` is never compiled. */
  patternChars: 200,
  /** A longer `$ref` points nowhere we follow. */
  refChars: 2_048,
} as const;

export type Schema = Record<string, unknown>;
export type Made = { ok: true; value: unknown } | { ok: false; reason: string };

/** Where a value goes: its JSONPath, that path with `[*]` for indices (key paths use it), its property's name. */
export interface At {
  path: string;
  wild: string;
  name: string;
  depth: number;
}

export interface Ctx {
  root: unknown;
  /** Without a trailing slash. */
  scratch: string;
  fresh: string;
  keyPaths: ReadonlySet<string>;
  values: number;
  steps: number;
  files: number;
  dirs: number;
  inputs: { path: string; content: string }[];
  keys: string[];
  /** The `keyPaths` entries given a value, so the rest are placed afterwards. */
  keyHits: Set<string>;
}

export const made = (value: unknown): Made => ({ ok: true, value });

export const fail = (at: At, why: string): Made => ({
  ok: false,
  reason: `${clip(at.path, LIMITS.shown.path)}: ${why}`,
});

/** Server text in a reason: quoted and cut. */
export const quote = (text: string): string => JSON.stringify(clip(text, LIMITS.shown.name));

export const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Written as an own property: a `__proto__` property name must not reach the prototype. */
export function put(obj: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });
}

/** The same JSONPath segments `findKeyArguments` writes, so `keyPaths` compare as strings. */
export function child(at: At, name: string): At {
  const seg = /^[a-z_$][\w$]*$/i.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
  return { path: at.path + seg, wild: at.wild + seg, name, depth: at.depth + 1 };
}

export function item(at: At, index: number): At {
  return { path: `${at.path}[${index}]`, wild: `${at.wild}[*]`, name: at.name, depth: at.depth + 1 };
}

/** String length bounds, or why there is no string. */
export function lengths(schema: Schema, at: At): { min: number; max: number } | Made {
  const min = Math.max(0, Math.ceil(finite(schema.minLength) ?? 0));
  const max = Math.min(ARGUMENT_BOUNDS.stringChars, Math.floor(finite(schema.maxLength) ?? Infinity));
  if (min > ARGUMENT_BOUNDS.stringChars) return fail(at, `minLength ${min} above ${ARGUMENT_BOUNDS.stringChars}`);
  if (min > max) return fail(at, `minLength ${min} above maxLength ${max}`);
  return { min, max };
}
