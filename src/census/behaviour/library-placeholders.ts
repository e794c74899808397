/** `${scratch}` and `${library}` only: a library is untrusted like a target list, so any other `${` is an error. */
import { InputError } from '../../model/input-error.js';
import { zodPath } from '../../model/zod-errors.js';
import { msg, show } from '../../render/message.js';

const PLACEHOLDERS = ['${scratch}', '${library}'] as const;

export interface Places {
  scratch: string;
  library: string;
}

/** Every string of `value` (not object keys) with the two placeholders replaced. */
export function substitute(value: unknown, places: Places): unknown {
  if (typeof value === 'string')
    // A function replacement: a `$` in the path is the path's, never a replacement pattern.
    return value.replaceAll('${scratch}', () => places.scratch).replaceAll('${library}', () => places.library);
  if (Array.isArray(value)) return value.map((v) => substitute(v, places));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, places)]));
  return value;
}

/** Where placeholders are expanded: `server.args`, `server.env`, `server.cwd`, and `plan`. */
const EXPANDED = new Set(['args', 'env', 'cwd']);

/** Throws at the first `${` the library does not expand (in server and plan; keys included). */
export function checkPlaceholders(server: Record<string, unknown>, plan: Record<string, unknown>, file: string): void {
  for (const [key, value] of Object.entries(server)) walk(value, ['server', key], EXPANDED.has(key), file);
  walk(plan, ['plan'], true, file);
}

function walk(value: unknown, at: (string | number)[], expands: boolean, file: string): void {
  if (typeof value === 'string') return check(value, at, expands, file);
  if (Array.isArray(value)) return value.forEach((v, i) => walk(v, [...at, i], expands, file));
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    check(k, [...at, k], false, file);
    walk(v, [...at, k], expands, file);
  }
}

function check(text: string, at: (string | number)[], expands: boolean, file: string): void {
  const left = expands ? PLACEHOLDERS.reduce((s, p) => s.replaceAll(p, ''), text) : text;
  if (!left.includes('${')) return;
  const field = zodPath(String(at[0]), at.slice(1));
  const where = expands ? 'only ${scratch} and ${library} are expanded' : 'nothing is expanded here';
  throw new InputError(
    msg`${show.name(field)}: ${show.quoted(text, 'message')}: ${where} (a plan-library file expands \${scratch} and \${library} in server.args, server.env values, server.cwd and plan, and nothing else)`,
    { file },
  );
}
