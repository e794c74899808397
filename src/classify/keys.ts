// Key-shaped arguments anywhere in an input schema. Bounds: docs/INTERNALS.md, "Untrusted input".
import { LIMITS } from '../model/limits.js';
import { bounded } from '../model/bounds.js';
import type { KeyArgument } from '../model/schema.js';
import { callsItselfAKey, describesKey, head, keyConfidence, mayBeDescribedKey, NAME_LIMIT } from './names.js';

export { keyConfidence, nameWords } from './names.js';

/** A name its own description calls a key is strong (firecrawl's `requestId`); a mere mention is weak. */
function argumentEvidence(name: string, description: unknown): Pick<KeyArgument, 'confidence' | 'reason'> | undefined {
  const confidence = keyConfidence(name);
  if (confidence === 'strong') return { confidence, reason: 'name' };
  if (callsItselfAKey(description) && mayBeDescribedKey(name))
    return { confidence: 'strong', reason: confidence ? 'name and description' : 'description' };
  if (confidence) return { confidence, reason: 'name' };
  if (describesKey(description)) return { confidence: 'weak', reason: 'description' };
  return undefined;
}

function segment(name: string): string {
  return /^[a-z_$][\w$]*$/i.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

type Schema = Record<string, unknown>;
export const TOOL_STEPS = 20_000;
/** A few tens of steps per tool is usual. */
export const SERVER_STEPS = 250_000;
const MAX_DEPTH = 24;
/** A `$ref` longer than this points nowhere: resolving it would cost its length on every hop. */
const MAX_REF = 2_048;
/** Of a `$ref` and its target, the `$ref`'s siblings win. */
const KEYWORDS = [
  'allOf',
  'anyOf',
  'oneOf',
  'then',
  'else',
  'properties',
  'additionalProperties',
  'patternProperties',
  'dependentSchemas',
  'items',
  'prefixItems',
  'description',
  'enum',
  'const',
  'type',
] as const;

export interface StepBudget {
  steps: number;
  cut: string[];
}

export function newStepBudget(): StepBudget {
  return { steps: SERVER_STEPS, cut: [] };
}

/** With a server's shared `budget`, a walk that runs out adds `tool` to `budget.cut`. */
export function findKeyArguments(inputSchema: unknown, budget?: StepBudget, tool = ''): KeyArgument[] {
  if (!isSchema(inputSchema)) return [];
  const allowance = Math.min(TOOL_STEPS, budget?.steps ?? TOOL_STEPS);
  const walk = new SchemaWalk(inputSchema, allowance);
  walk.node(inputSchema, '$', 0);
  if (budget) {
    budget.steps = Math.max(0, budget.steps - (allowance - Math.max(0, walk.left)));
    if (walk.left < 0) budget.cut.push(tool);
  }
  return [...walk.found.values()];
}

/** `active`: the `$ref`s expanded on the current path, so recursion stops; one set, never copied. */
class SchemaWalk {
  readonly found = new Map<string, KeyArgument>();
  private readonly active = new Set<string>();
  private readonly targets = new Map<string, unknown>();
  private readonly keys = new Map<object, string[]>();

  /** Below zero once the walk ran out. */
  left: number;

  constructor(
    private readonly root: Schema,
    steps: number,
  ) {
    this.left = steps;
  }

  private spend(): boolean {
    if (this.left < 0) return false;
    return --this.left >= 0;
  }

  node(node: unknown, path: string, depth: number): void {
    if (!isSchema(node) || depth > MAX_DEPTH || !this.spend()) return;
    const [schema, added] = this.resolve(node);
    for (const comb of ['allOf', 'anyOf', 'oneOf'] as const)
      this.each(schema[comb], (b) => this.node(b, path, depth + 1));
    for (const cond of ['then', 'else'] as const) this.node(schema[cond], path, depth + 1);
    const props = schema.properties;
    if (isSchema(props)) this.eachEntry(props, (name, sub) => this.property(name, sub, path, depth));
    if (isSchema(schema.additionalProperties)) this.node(schema.additionalProperties, `${path}.*`, depth + 1);
    for (const group of ['patternProperties', 'dependentSchemas'] as const) {
      const map = schema[group];
      const at = group === 'patternProperties' ? `${path}.*` : path;
      if (isSchema(map)) this.eachEntry(map, (_, sub) => this.node(sub, at, depth + 1));
    }
    const items = schema.items;
    if (Array.isArray(items)) this.each(items, (it) => this.node(it, `${path}[*]`, depth + 1));
    else this.node(items, `${path}[*]`, depth + 1);
    this.each(schema.prefixItems, (it) => this.node(it, `${path}[*]`, depth + 1));
    this.release(added);
  }

  private property(name: string, sub: unknown, path: string, depth: number): void {
    const at = bounded(`${path}${segment(head(name, NAME_LIMIT))}`, LIMITS.keyPathChars);
    const [resolved, added] = isSchema(sub) ? this.resolve(sub) : [{} as Schema, []];
    const evidence = this.canHoldKey(resolved, 0) ? argumentEvidence(name, resolved.description) : undefined;
    this.release(added);
    if (evidence) this.add({ name: bounded(name, LIMITS.nameChars), path: at, ...evidence });
    this.node(sub, at, depth + 1);
  }

  private add(arg: KeyArgument): void {
    const prev = this.found.get(arg.path);
    if (!prev || (prev.confidence === 'weak' && arg.confidence === 'strong')) this.found.set(arg.path, arg);
  }

  /** A key is a scalar; booleans also come as `enum`, `const`, or behind `allOf` and `$ref`. */
  private canHoldKey(schema: Schema, depth: number): boolean {
    if (depth > 8 || !this.spend()) return false;
    const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
    if (
      values &&
      values.length > 0 &&
      this.every(values, (v) => typeof v === 'boolean' || v === null || typeof v === 'object')
    )
      return false;
    if (!this.every(schema.allOf, (b) => !isSchema(b) || this.canHoldKey(this.resolved(b), depth + 1))) return false;
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    if (types.length > 0) return !this.every(types, (t) => t !== 'string' && t !== 'integer' && t !== 'number');
    let branches = false;
    let holds = false;
    for (const list of [schema.anyOf, schema.oneOf]) {
      this.each(list, (b) => {
        if (holds || !isSchema(b)) return;
        branches = true;
        holds = this.canHoldKey(this.resolved(b), depth + 1);
      });
    }
    return branches ? holds : !('properties' in schema) && !('items' in schema);
  }

  /** The refs followed stay active until `release`. */
  private resolve(node: Schema): [Schema, string[]] {
    const layers: Schema[] = [node];
    const added: string[] = [];
    let current = node;
    while (typeof current.$ref === 'string' && !this.active.has(current.$ref) && this.spend()) {
      const ref = current.$ref;
      this.active.add(ref);
      added.push(ref);
      const target = this.target(ref);
      if (!isSchema(target)) break;
      layers.push(target);
      current = target;
    }
    if (layers.length === 1) return [node, added];
    const merged: Schema = {};
    for (let i = layers.length - 1; i >= 0; i--) {
      for (const k of KEYWORDS) if (Object.hasOwn(layers[i]!, k)) merged[k] = layers[i]![k];
    }
    return [merged, added];
  }

  /** For a look that goes no deeper along this path. */
  private resolved(node: Schema): Schema {
    const [schema, added] = this.resolve(node);
    this.release(added);
    return schema;
  }

  private release(refs: string[]): void {
    for (const ref of refs) this.active.delete(ref);
  }

  private target(ref: string): unknown {
    let target = this.targets.get(ref);
    if (target === undefined && !this.targets.has(ref))
      this.targets.set(ref, (target = ref.length > MAX_REF ? undefined : pointer(this.root, ref)));
    return target;
  }

  /** Keys are listed once however often the walk comes back. */
  private eachEntry(obj: Schema, fn: (key: string, value: unknown) => void): void {
    let keys = this.keys.get(obj);
    if (!keys) this.keys.set(obj, (keys = Object.keys(obj)));
    for (const key of keys) {
      if (!this.spend()) return;
      fn(key, obj[key]);
    }
  }

  private each(list: unknown, fn: (item: unknown) => void): void {
    if (!Array.isArray(list)) return;
    for (const item of list) {
      if (!this.spend()) return;
      fn(item);
    }
  }

  /** Out of steps counts as false. */
  private every(list: unknown, test: (item: unknown) => boolean): boolean {
    if (!Array.isArray(list)) return true;
    for (const item of list) if (!this.spend() || !test(item)) return false;
    return true;
  }
}

function pointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref
    .slice(1)
    .split('/')
    .filter((p, i) => i > 0 || p !== '');
  let node: unknown = root;
  for (const raw of parts) {
    // Most refs are plain (`#/$defs/Name`): decode only what needs it, this runs on every hop.
    const decoded = raw.includes('%') ? safeDecode(raw) : raw;
    const key = decoded.includes('~') ? decoded.replaceAll('~1', '/').replaceAll('~0', '~') : decoded;
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

function isSchema(v: unknown): v is Schema {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
