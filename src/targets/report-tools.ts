/** A report's server as a saved tools/list result; schemas hold just the key arguments, so verdicts match. */
import type { KeyArgument, ServerReport, ToolReport } from '../model/schema.js';
import type { SavedToolList } from './types.js';
import { MAX_JSON_DEPTH } from '../model/bounded-input.js';
import { LIMITS } from '../model/limits.js';

/** What the description of a key found by its description says (classify/names.ts reads it so). */
const CALLS_ITSELF_A_KEY = 'Idempotency key.';
const MENTIONS_DEDUPLICATION = 'Used to avoid duplicate requests.';

type Schema = Record<string, unknown>;

export function savedFromReport(server: ServerReport): SavedToolList {
  return {
    tools: server.tools.map(toolOf),
    ...(server.capabilities ? { capabilities: server.capabilities } : {}),
    ...(server.serverInfo ? { serverInfo: server.serverInfo } : {}),
  };
}

function toolOf(tool: ToolReport): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: schemaOf(tool.keyArguments),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}

/** An object schema with each key argument at its path (`$.options.clientToken`, `$.items[*].key`). */
export function schemaOf(keys: readonly KeyArgument[]): Schema {
  const root: Schema = { type: 'object' };
  for (const key of keys) {
    // A path longer than a scan ever writes (a hostile report: one object per step) is not walked.
    const steps = key.path.length <= LIMITS.keyPathChars ? pathSteps(key.path) : undefined;
    // A path cut short or otherwise unusable: the key at the top, by its name.
    const usable =
      steps && steps.length <= MAX_JSON_DEPTH && steps.at(-1)?.kind === 'property' ? steps : [prop(key.name)];
    let node = root;
    for (const step of usable.slice(0, -1)) node = child(node, step);
    Object.assign(child(node, usable.at(-1)!), leaf(key));
  }
  return root;
}

function leaf(key: KeyArgument): Schema {
  const byDescription = key.reason === 'description' || key.reason === 'name and description';
  if (!byDescription) return { type: 'string' };
  return {
    type: 'string',
    description: key.confidence === 'strong' ? CALLS_ITSELF_A_KEY : MENTIONS_DEDUPLICATION,
  };
}

type Step = { kind: 'property'; name: string } | { kind: 'any' } | { kind: 'items' };
const prop = (name: string): Step => ({ kind: 'property', name });

function child(node: Schema, step: Step): Schema {
  if (step.kind === 'items') {
    node.type = 'array';
    return (node.items ??= {}) as Schema;
  }
  node.type = 'object';
  if (step.kind === 'any') return (node.additionalProperties ??= {}) as Schema;
  const props = (node.properties ??= {}) as Schema;
  if (!Object.hasOwn(props, step.name))
    Object.defineProperty(props, step.name, { value: {}, enumerable: true, writable: true, configurable: true });
  return props[step.name] as Schema;
}

/** Steps of a JSONPath as classify/keys.ts writes it; undefined for anything else. One pass, no regex. */
export function pathSteps(path: string): Step[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: Step[] = [];
  let i = 1;
  while (i < path.length) {
    if (path.startsWith('.*', i)) {
      steps.push({ kind: 'any' });
      i += 2;
    } else if (path.startsWith('[*]', i)) {
      steps.push({ kind: 'items' });
      i += 3;
    } else if (path[i] === '.') {
      let end = i + 1;
      while (end < path.length && /[\w$]/.test(path[end]!)) end++;
      if (end === i + 1) return undefined;
      steps.push(prop(path.slice(i + 1, end)));
      i = end;
    } else if (path.startsWith('["', i)) {
      const end = stringEnd(path, i + 1);
      if (end === undefined || path[end + 1] !== ']') return undefined;
      try {
        steps.push(prop(JSON.parse(path.slice(i + 1, end + 1)) as string));
      } catch {
        return undefined;
      }
      i = end + 2;
    } else return undefined;
  }
  return steps;
}

/** The index of the quote that ends the JSON string starting at `start`, or undefined. */
function stringEnd(text: string, start: number): number | undefined {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return undefined;
}
