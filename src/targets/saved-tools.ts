/** Saved `tools/list` results (one, an array, or JSON Lines) as `static` targets, classified without contact. */
import path from 'node:path';
import { parseJsonc } from './jsonc.js';
import type { SavedToolList, Target } from './types.js';

type Doc = Record<string, unknown>;
const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const object = (v: unknown): Doc | undefined => (isDoc(v) ? v : undefined);

/** A tool definition, as opposed to a target entry: tools/list requires `inputSchema`. */
const isToolEntry = (v: unknown): boolean => isDoc(v) && typeof v.name === 'string' && Object.hasOwn(v, 'inputSchema');

/** One saved result, or undefined when `doc` is not of its shape (a target file of another format). */
function resultOf(doc: unknown): SavedToolList | undefined {
  if (Array.isArray(doc)) return doc.length === 0 || isToolEntry(doc[0]) ? { tools: doc } : undefined;
  if (!isDoc(doc)) return undefined;
  if (isDoc(doc.result) && typeof doc.jsonrpc === 'string') return resultOf(doc.result);
  // Our own lists and client configs have `servers`/`mcpServers`; a result has only `tools` for a list.
  if (!Array.isArray(doc.tools) || Object.hasOwn(doc, 'servers') || Object.hasOwn(doc, 'mcpServers')) return undefined;
  return { tools: doc.tools, capabilities: object(doc.capabilities), serverInfo: object(doc.serverInfo) };
}

/** The results in a file's text; undefined when it is not a file of saved results. */
export function savedResults(text: string): { results: SavedToolList[]; lines: boolean } | undefined {
  const whole = parseJsonc(text);
  if ('value' in whole) {
    const doc = whole.value;
    const one = resultOf(doc);
    if (one) return { results: [one], lines: false };
    // An array of results (each with its own `tools`), not of tools.
    if (Array.isArray(doc) && doc.length > 0 && doc.every((d) => isDoc(d) && Array.isArray(d.tools))) {
      const many = doc.map(resultOf);
      return many.every((r) => r !== undefined) ? { results: many as SavedToolList[], lines: false } : undefined;
    }
    return undefined;
  }
  // JSON Lines: every non-empty line a result; anything else and the file is not one of these.
  const results: SavedToolList[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parseJsonc(line);
    const one = 'value' in parsed ? resultOf(parsed.value) : undefined;
    if (!one) return undefined;
    results.push(one);
  }
  return results.length > 1 ? { results, lines: true } : undefined;
}

/** Targets for the results of one file: named by serverInfo.name, else by the file (and the result's number). */
export function savedTargets(text: string, file: string): Target[] | undefined {
  const found = savedResults(text);
  if (!found) return undefined;
  const base = path.basename(file).replace(/\.(?:jsonl|ndjson|json)$/i, '') || 'tools';
  const taken = new Set<string>();
  return found.results.map((saved, i) => {
    const many = found.results.length > 1;
    const own =
      typeof saved.serverInfo?.name === 'string' && saved.serverInfo.name.trim()
        ? saved.serverInfo.name.trim().slice(0, 200)
        : undefined;
    let name = own ?? (many ? `${base}#${i + 1}` : base);
    for (let n = 2; taken.has(name); n++) name = `${own ?? base} #${n}`;
    taken.add(name);
    const where = found.lines ? `line ${i + 1}` : `[${i}]`;
    return { name, source: many ? `${file}#${where}` : file, kind: 'saved', saved };
  });
}
