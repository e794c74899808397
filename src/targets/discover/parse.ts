/** Client files into null-prototype data; errors never quote the file: a client file holds tokens. */
import { parse as parseToml, TomlError } from 'smol-toml';
import { parse as parseYaml, YAMLError } from 'yaml';
import { bounded } from '../../model/bounds.js';
import { MAX_TARGET_FILE_DEPTH, parseJsonc } from '../jsonc.js';

export type Syntax = 'json' | 'toml' | 'yaml';

export function syntaxOf(file: string, fallback: Syntax): Syntax {
  const lower = file.toLowerCase();
  if (lower.endsWith('.toml')) return 'toml';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  if (lower.endsWith('.json') || lower.endsWith('.jsonc')) return 'json';
  return fallback;
}

class TooDeep extends Error {}

/** Client configs are a few kilobytes; the parsers are not built for megabytes of hostile input. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** Indentation, and `- ` indicators opening one line, beyond any real config (see yamlShapeProblem). */
const MAX_YAML_INDENT = 256;

export function parseDocument(text: string, syntax: Syntax): { value: unknown } | { error: string } {
  // An empty file is what some clients leave before their first server: no servers, no error.
  if (syntax === 'json') return text.trim() === '' ? { value: undefined } : parseJsonc(text);
  if (text.length > MAX_DOCUMENT_BYTES)
    return { error: `larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB; not read` };
  const shape = syntax === 'yaml' ? yamlShapeProblem(text) : undefined;
  if (shape) return { error: shape };
  try {
    if (syntax === 'toml') return { value: plain(parseToml(text, { maxDepth: MAX_TARGET_FILE_DEPTH }), 0) };
    // No custom tags; maxAliasCount stops a "billion laughs"; logLevel: warnings would quote the file.
    return {
      value: plain(
        parseYaml(text, {
          schema: 'core',
          resolveKnownTags: false,
          maxAliasCount: 100,
          prettyErrors: true,
          logLevel: 'error',
        }),
        0,
      ),
    };
  } catch (err) {
    return { error: describeError(err, syntax) };
  }
}

function describeError(err: unknown, syntax: Syntax): string {
  const kind = syntax === 'toml' ? 'TOML' : 'YAML';
  if (err instanceof TooDeep) return `nested deeper than ${MAX_TARGET_FILE_DEPTH} levels`;
  // Only the first line: the parsers append the offending lines of the file, secrets and all.
  if (err instanceof TomlError)
    return `not valid TOML at line ${err.line}, column ${err.column}: ${firstLine(err.message.replace('Invalid TOML document: ', ''))}`;
  if (err instanceof YAMLError) {
    const at = err.linePos?.[0];
    const message = firstLine(err.message).replace(/ at line \d+, column \d+:?$/, '');
    return `not valid YAML${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${message}`;
  }
  // A stack overflow in a parser on a hostile document, or anything else it throws.
  return `not valid ${kind}: ${firstLine((err as Error)?.message ?? String(err))}`;
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return bounded(end < 0 ? text : text.slice(0, end), 200);
}

/** `__proto__` stays a plain key; TOML dates and big integers become text. */
function plain(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (depth >= MAX_TARGET_FILE_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value as object))
      out[key] = plain((value as Record<string, unknown>)[key], depth + 1);
    return out;
  }
  return String(value);
}

/** yaml recurses per level and overflows the stack on a few thousand, so one linear pass bounds nesting first. */
function yamlShapeProblem(text: string): string | undefined {
  let indent = 0;
  let lead = true; // still in the indentation and indicators that open the line
  let indicators = 0;
  let flow = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      indent = 0;
      indicators = 0;
      lead = true;
      continue;
    }
    if (lead) {
      if (c === 32) {
        if (++indent > MAX_YAML_INDENT) return `indented deeper than ${MAX_YAML_INDENT} columns`;
        continue;
      }
      // `-` or `?` followed by a space (or the end of the line) opens one more level.
      const next = text.charCodeAt(i + 1);
      if ((c === 45 || c === 63) && (next === 32 || next === 10 || Number.isNaN(next))) {
        if (++indicators > MAX_TARGET_FILE_DEPTH) return `nested deeper than ${MAX_TARGET_FILE_DEPTH} levels`;
        continue;
      }
      lead = false;
    }
    if (c === 91 || c === 123) {
      if (++flow > MAX_TARGET_FILE_DEPTH) return `nested deeper than ${MAX_TARGET_FILE_DEPTH} levels`;
    } else if ((c === 93 || c === 125) && flow > 0) flow--;
  }
  return undefined;
}
