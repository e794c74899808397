// `$ref`s followed and `allOf`s merged, within a hop budget: a cycle costs hops, never a stack.
import { isObject } from '../../model/is-object.js';
import { ARGUMENT_BOUNDS, quote, type Ctx, type Schema } from './arguments-common.js';

type Normal = { schema: Schema } | { why: string };

/** `base` wins for every keyword but `properties` and `required`, which are joined. */
export function merge(base: Schema, extra: unknown): Schema {
  if (!isObject(extra)) return base;
  const out: Schema = { ...extra, ...base };
  if (isObject(base.properties) && isObject(extra.properties))
    out.properties = { ...extra.properties, ...base.properties };
  if (Array.isArray(base.required) && Array.isArray(extra.required))
    out.required = [...(base.required as unknown[]), ...(extra.required as unknown[])];
  return out;
}

export function without(schema: Schema, keyword: string): Schema {
  const out = { ...schema };
  delete out[keyword];
  return out;
}

/** Only `#` and `#/...` pointers into the tool's own schema, own properties only. */
function resolve(root: unknown, ref: string): unknown {
  if (ref.length > ARGUMENT_BOUNDS.refChars || !ref.startsWith('#')) return undefined;
  if (ref === '#' || ref === '#/') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (isObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

interface Hops {
  left: number;
}

function step(ctx: Ctx, hops: Hops): string | undefined {
  hops.left -= 1;
  ctx.steps += 1;
  if (hops.left < 0) return `more than ${ARGUMENT_BOUNDS.schemaHops} $ref or allOf hops`;
  if (ctx.steps > ARGUMENT_BOUNDS.steps) return `more than ${ARGUMENT_BOUNDS.steps} schema steps`;
  return undefined;
}

function follow(input: unknown, ctx: Ctx, hops: Hops, chain: readonly string[]): Normal {
  let schema = input;
  const seen = [...chain];
  for (;;) {
    const over = step(ctx, hops);
    if (over) return { why: over };
    if (schema === false) return { why: 'schema false allows no value' };
    if (!isObject(schema)) return { schema: {} };
    const ref = schema.$ref;
    if (typeof ref === 'string') {
      if (seen.includes(ref)) return { why: `$ref cycle at ${quote(ref)}` };
      seen.push(ref);
      const target = resolve(ctx.root, ref);
      if (target === undefined) return { why: `$ref ${quote(ref)} is not a local definition` };
      schema = merge(without(schema, '$ref'), target);
      continue;
    }
    if (!Array.isArray(schema.allOf)) return { schema };
    const branches: unknown[] = schema.allOf;
    let out = without(schema, 'allOf');
    for (const branch of branches) {
      const got = follow(branch, ctx, hops, seen);
      if ('why' in got) return got;
      out = merge(out, got.schema);
    }
    schema = out;
  }
}

/** The schema with its `$ref`s followed and its `allOf` branches merged in, or why it cannot be. */
export function normalize(input: unknown, ctx: Ctx): Normal {
  return follow(input, ctx, { left: ARGUMENT_BOUNDS.schemaHops }, []);
}

const STRING_HINTS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_HINTS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

/** The first type that is not null; without one, what the other keywords imply. */
export function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const first = t.find((x): x is string => typeof x === 'string' && x !== 'null');
    if (first) return first;
    if (t.includes('null')) return 'null';
  }
  const has = (k: string) => Object.hasOwn(schema, k);
  if (has('properties') || has('required')) return 'object';
  if (has('items') || has('prefixItems') || has('minItems')) return 'array';
  if (STRING_HINTS.some(has)) return 'string';
  if (NUMBER_HINTS.some(has)) return 'number';
  return undefined;
}

export function allowsString(schema: Schema): boolean {
  const t = schema.type;
  return t === undefined || t === 'string' || (Array.isArray(t) && t.includes('string'));
}
