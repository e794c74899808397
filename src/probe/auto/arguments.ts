// Arguments for `probe --auto`, made from a tool's `inputSchema`: only what is required, deterministic,
// and bounded (ARGUMENT_BOUNDS) whatever the server sent. The caller's schema is never changed.
import { placeKey } from '../../classify/key-place.js';
import { keyConfidence, nameWords } from '../../classify/keys.js';
import { isObject } from '../../model/is-object.js';
import {
  ARGUMENT_BOUNDS,
  child,
  fail,
  finite,
  item,
  made,
  put,
  quote,
  type At,
  type Ctx,
  type Made,
  type Schema,
} from './arguments-common.js';
import { makeNumber } from './arguments-numbers.js';
import { makePath, pathKind } from './arguments-paths.js';
import { allowsString, merge, normalize, typeOf, without } from './arguments-schema.js';
import { makeString } from './arguments-strings.js';

export interface MadeArguments {
  ok: true;
  args: Record<string, unknown>;
  /**
   * Files to create before the call (a path the tool reads as an input: a source to move, a file to
   * edit/read/append to). Relative to `scratch`. A path ending in `/` is a directory to make (its
   * `content` is empty).
   */
  inputs: { path: string; content: string }[];
  /** JSONPaths (`$.a.b`) of the key arguments given a fresh value. */
  keys: string[];
}

export type ArgumentsResult = MadeArguments | { ok: false; reason: string };

const PLAIN = 'probe';
const ROOT: At = { path: '$', wild: '$', name: '', depth: 0 };

/** A strong key name, or `request_id`: a fresh one per experiment is what the caller wants of both. */
function namedKey(name: string): boolean {
  return keyConfidence(name) === 'strong' || nameWords(name).join('') === 'requestid';
}

function listedKey(at: At, ctx: Ctx): string | undefined {
  if (ctx.keyPaths.has(at.path)) return at.path;
  return ctx.keyPaths.has(at.wild) ? at.wild : undefined;
}

function key(at: At, ctx: Ctx, listed: string | undefined): Made {
  ctx.keys.push(at.path);
  if (listed) ctx.keyHits.add(listed);
  return made(ctx.fresh);
}

/** What a failed branch made is forgotten; the values it cost are not, so branches stay bounded. */
function makeBranch(schema: Schema, word: 'anyOf' | 'oneOf', at: At, ctx: Ctx): Made {
  const branches = schema[word] as unknown[];
  const base = without(schema, word);
  const saved = { files: ctx.files, dirs: ctx.dirs, inputs: ctx.inputs.length, keys: ctx.keys.length };
  const hits = [...ctx.keyHits];
  let last: Made = fail(at, `no ${word} branch can be made`);
  for (const branch of branches) {
    if (++ctx.steps > ARGUMENT_BOUNDS.steps) return fail(at, `more than ${ARGUMENT_BOUNDS.steps} schema steps`);
    last = make(merge(base, branch), { ...at, depth: at.depth + 1 }, ctx);
    if (last.ok) return last;
    Object.assign(ctx, { files: saved.files, dirs: saved.dirs, keyHits: new Set(hits) });
    ctx.inputs.length = saved.inputs;
    ctx.keys.length = saved.keys;
  }
  return last;
}

function make(input: unknown, at: At, ctx: Ctx): Made {
  if (at.depth > ARGUMENT_BOUNDS.depth) return fail(at, `nested deeper than ${ARGUMENT_BOUNDS.depth} levels`);
  if (++ctx.values > ARGUMENT_BOUNDS.values) return fail(at, `more than ${ARGUMENT_BOUNDS.values} values to make`);
  const normal = normalize(input, ctx);
  if ('why' in normal) return fail(at, normal.why);
  const schema = normal.schema;
  const listed = listedKey(at, ctx);
  if (listed) return key(at, ctx, listed);
  for (const word of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[word]) && schema[word].length > 0) return makeBranch(schema, word, at, ctx);
  if (Object.hasOwn(schema, 'const')) return made(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return made(schema.enum[0]);
  if (at.depth > 0 && namedKey(at.name) && allowsString(schema)) return key(at, ctx, undefined);
  const type = typeOf(schema) ?? (at.depth === 0 ? 'object' : undefined);
  const path = type === 'string' || type === undefined ? pathKind(at.name, schema) : undefined;
  if (path) return makePath(path, schema, at, ctx);
  if (schema.default !== undefined) return made(schema.default);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return made(schema.examples[0]);
  return byType(type, schema, at, ctx);
}

function byType(type: string | undefined, schema: Schema, at: At, ctx: Ctx): Made {
  switch (type) {
    case 'object':
      return makeObject(schema, at, ctx);
    case 'array':
      return makeArray(schema, at, ctx);
    case 'string':
      return makeString(schema, at);
    case 'number':
    case 'integer': {
      const got = makeNumber(schema, type === 'integer');
      return 'why' in got ? fail(at, got.why) : made(got.value);
    }
    case 'boolean':
      return made(false);
    case 'null':
      return made(null);
    case undefined:
      return made(PLAIN);
    default:
      return fail(at, `unknown type ${quote(type)}`);
  }
}

/** Required properties, and optional ones that are keys: the experiment is about the key. */
function wanted(schema: Schema, at: At, ctx: Ctx): string[] {
  const names: string[] = Array.isArray(schema.required)
    ? schema.required.filter((n): n is string => typeof n === 'string')
    : [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const name of Object.keys(properties).slice(0, ARGUMENT_BOUNDS.keyScan)) {
    const sub = child(at, name);
    const property = properties[name];
    const stringy = !isObject(property) || allowsString(property);
    if (listedKey(sub, ctx) || (namedKey(name) && stringy)) names.push(name);
  }
  return names;
}

function makeObject(schema: Schema, at: At, ctx: Ctx): Made {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const name of wanted(schema, at, ctx)) {
    if (Object.hasOwn(out, name)) continue;
    const got = make(Object.hasOwn(properties, name) ? properties[name] : {}, child(at, name), ctx);
    if (!got.ok) return got;
    put(out, name, got.value);
  }
  return made(out);
}

/** `prefixItems` (or draft 4's array `items`) first, then `items` (or `additionalItems`). */
function itemSchema(schema: Schema, index: number): unknown {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : [];
  if (index < tuple.length) return tuple[index];
  if (Array.isArray(schema.items)) return schema.additionalItems ?? {};
  return schema.items ?? {};
}

function makeArray(schema: Schema, at: At, ctx: Ctx): Made {
  const count = Math.max(0, Math.ceil(finite(schema.minItems) ?? 0));
  const most = finite(schema.maxItems);
  if (count > ARGUMENT_BOUNDS.arrayItems) return fail(at, `minItems ${count} above ${ARGUMENT_BOUNDS.arrayItems}`);
  if (most !== undefined && most < count) return fail(at, `minItems ${count} above maxItems ${most}`);
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const got = make(itemSchema(schema, i), item(at, i), ctx);
    if (!got.ok) return got;
    out.push(got.value);
  }
  if (schema.uniqueItems === true && new Set(out.map((v) => JSON.stringify(v))).size < out.length)
    return fail(at, `uniqueItems with ${count} items alike`);
  return made(out);
}

export function makeArguments(
  inputSchema: unknown,
  opts: { scratch: string; keyPaths?: readonly string[]; fresh: string },
): ArgumentsResult {
  let end = opts.scratch.length;
  while (end > 1 && opts.scratch[end - 1] === '/') end--;
  const ctx: Ctx = {
    root: inputSchema,
    scratch: opts.scratch.slice(0, end),
    fresh: opts.fresh,
    keyPaths: new Set(opts.keyPaths ?? []),
    values: 0,
    steps: 0,
    files: 0,
    dirs: 0,
    inputs: [],
    keys: [],
    keyHits: new Set(),
  };
  if (!isObject(inputSchema)) return { ok: true, args: {}, inputs: [], keys: [] };
  const got = make(inputSchema, ROOT, ctx);
  if (!got.ok) return got;
  if (!isObject(got.value)) return { ok: false, reason: '$: the arguments are not an object' };
  let args = got.value;
  for (const path of ctx.keyPaths) {
    if (ctx.keyHits.has(path)) continue;
    const placed = placeKey(args, path, ctx.fresh);
    args = placed.args;
    if (placed.placed) ctx.keys.push(path);
  }
  return { ok: true, args, inputs: ctx.inputs, keys: ctx.keys };
}
