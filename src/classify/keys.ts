/**
 * Key-shaped arguments anywhere in a tool's input schema: nested properties, `$ref`/`$defs`,
 * `anyOf`/`oneOf`/`allOf` branches, array items. Names are compared as words, so casing and
 * separators do not matter (`idempotency_key`, `idempotencyKey`, `Idempotency-Key`).
 */
import { bounded } from '../report/bounds.js';
import type { KeyArgument } from '../report/schema.js';

/**
 * Names that can only mean deduplication, matched against the name's words joined. Anchored at
 * the end: `x-idempotency-key` is a key, `idempotency_key_ttl` or `dedupe_key_prefix` is not.
 */
const STRONG = [
  /idempoten(cy|ce|t)(key|token|id)$/,
  /^(client|clientrequest)token$/,
  /dedup(e|lication)?(key|id|token)$/,
];
/** Names that often, not always, mean it. */
const WEAK = [/(^|x)requestid$/, /requestkey$/, /^operationid$/, /^clientreferenceid$/, /^clientrequestid$/, /^nonce$/, /^idempotency$/, /^dedup(e|lication)?$/];
const DESCRIPTION = /idempoten|de-?dup|duplicate (request|submission|charge|payment|order)s?/i;

/** Words of a name, lower case: `clientRequestToken` -> client, request, token. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export function keyConfidence(name: string): 'strong' | 'weak' | undefined {
  const joined = nameWords(name).join('');
  if (STRONG.some((re) => re.test(joined))) return 'strong';
  if (WEAK.some((re) => re.test(joined))) return 'weak';
  return undefined;
}

export function mentionsIdempotency(text: unknown): boolean {
  return typeof text === 'string' && DESCRIPTION.test(text);
}

const NEGATED = /\b(not|non|never|no|without|isn't|aren't|cannot|can't)[\s-]+(\w+[\s-]+){0,2}$/i;

/** An argument's description that says it deduplicates: a mention, and not a negated one. */
function describesKey(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const m = DESCRIPTION.exec(text);
  return !!m && !NEGATED.test(text.slice(Math.max(0, m.index - 40), m.index));
}

type Schema = Record<string, unknown>;
const MAX_NODES = 5_000;
const MAX_DEPTH = 24;

export function findKeyArguments(inputSchema: unknown): KeyArgument[] {
  if (!isSchema(inputSchema)) return [];
  const found = new Map<string, KeyArgument>();
  let budget = MAX_NODES;

  const resolve = (schema: Schema, refs: Set<string>): [Schema, Set<string>] => {
    let current = schema;
    let seen = refs;
    while (typeof current.$ref === 'string' && !seen.has(current.$ref)) {
      const target = pointer(inputSchema, current.$ref);
      seen = new Set(seen).add(current.$ref);
      if (!isSchema(target)) break;
      current = { ...target, ...withoutRef(current) };
    }
    return [current, seen];
  };

  const add = (arg: KeyArgument) => {
    const prev = found.get(arg.path);
    if (!prev || (prev.confidence === 'weak' && arg.confidence === 'strong')) found.set(arg.path, arg);
  };

  const walk = (node: unknown, path: string, depth: number, refs: Set<string>): void => {
    if (!isSchema(node) || depth > MAX_DEPTH || --budget < 0) return;
    const [schema, seen] = resolve(node, refs);
    for (const comb of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = schema[comb];
      if (Array.isArray(branches)) for (const b of branches) walk(b, path, depth + 1, seen);
    }
    for (const cond of ['then', 'else'] as const) walk(schema[cond], path, depth + 1, seen);
    const props = schema.properties;
    if (isSchema(props)) {
      for (const [name, sub] of Object.entries(props)) {
        const at = bounded(`${path}${segment(name)}`, 512);
        const [resolved, subSeen] = isSchema(sub) ? resolve(sub, seen) : [{} as Schema, seen];
        if (canHoldKey(resolved, (b) => resolve(b, subSeen)[0])) {
          const confidence = keyConfidence(name);
          if (confidence) add({ name: bounded(name, 256), path: at, confidence, reason: 'name' });
          else if (describesKey(resolved.description)) add({ name: bounded(name, 256), path: at, confidence: 'weak', reason: 'description' });
        }
        walk(sub, at, depth + 1, seen);
      }
    }
    if (isSchema(schema.additionalProperties)) walk(schema.additionalProperties, `${path}.*`, depth + 1, seen);
    for (const group of ['patternProperties', 'dependentSchemas'] as const) {
      const map = schema[group];
      if (isSchema(map)) for (const sub of Object.values(map)) walk(sub, group === 'patternProperties' ? `${path}.*` : path, depth + 1, seen);
    }
    const items = schema.items;
    if (Array.isArray(items)) for (const it of items) walk(it, `${path}[*]`, depth + 1, seen);
    else walk(items, `${path}[*]`, depth + 1, seen);
    if (Array.isArray(schema.prefixItems)) for (const it of schema.prefixItems) walk(it, `${path}[*]`, depth + 1, seen);
  };

  walk(inputSchema, '$', 0, new Set());
  return [...found.values()];
}

/**
 * A key is a scalar: a boolean named `idempotent`, or an object, is not one. Booleans also come
 * as `enum: [true, false]`, `const: true`, or behind `allOf` and `$ref`.
 */
function canHoldKey(schema: Schema, resolve: (s: Schema) => Schema, depth = 0): boolean {
  if (depth > 8) return false;
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (values && values.length > 0 && values.every((v) => typeof v === 'boolean' || v === null || typeof v === 'object')) return false;
  const allOf = Array.isArray(schema.allOf) ? schema.allOf.filter(isSchema).map(resolve) : [];
  if (allOf.some((b) => !canHoldKey(b, resolve, depth + 1))) return false;
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) {
    const branches = [schema.anyOf, schema.oneOf].flatMap((b) => (Array.isArray(b) ? b.filter(isSchema).map(resolve) : []));
    if (branches.length === 0) return !('properties' in schema) && !('items' in schema);
    return branches.some((b) => canHoldKey(b, resolve, depth + 1));
  }
  return types.some((t) => t === 'string' || t === 'integer' || t === 'number');
}

function segment(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function pointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref.slice(1).split('/').filter((p, i) => i > 0 || p !== '');
  let node: unknown = root;
  for (const raw of parts) {
    const key = safeDecode(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A `$ref` from a server may hold a stray `%`: keep the raw text rather than throw. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function withoutRef(schema: Schema): Schema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

function isSchema(v: unknown): v is Schema {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
