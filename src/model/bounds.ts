import { jsonExtent, MAX_JSON_DEPTH } from './bounded-input.js';
import { cutHead, cutTail } from './cut.js';

/**
 * Size bounds for what servers send us. A report must stay readable and loadable even when a
 * server sends a 5 MB description or a deeply nested annotation object.
 */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutHead(text, max); // never half a surrogate pair
  return `${kept}… [${text.length - kept.length} more characters]`;
}

/** The last `max` characters, for tails (a server's last words on stderr). */
export function boundedTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutTail(text, max);
  return `[${text.length - kept.length} earlier characters] …${kept}`;
}

/**
 * The marks `bounded` and `boundedTail` leave where they cut. Cuts happen before redaction (to keep
 * memory in check on arrival), so a secret may be cut in two: the redactor finds the cuts by these
 * marks and blanks what is left of a secret beside them. Group 1 is set for a head (text before the
 * mark was cut short), group 2 for a tail (text after the mark starts mid-way).
 */
export const CUT_MARK = /(… \[\d{1,16} more characters\])|(\[\d{1,16} earlier characters\] …)/g;

export const DESCRIPTION_LIMIT = 4_000;
const MARK = /… \[\d+ more characters\]$/;

/** Descriptions are cut once, on arrival; cutting again must not change the count it reports. */
export function boundedDescription(text: string): string {
  return text.length <= DESCRIPTION_LIMIT + 40 && MARK.test(text) ? text : bounded(text, DESCRIPTION_LIMIT);
}

/**
 * Keeps an object as received unless its JSON is larger than `max`; then only its scalar fields,
 * cut short, with the `keep` fields first so they survive whatever else the server sent.
 */
export function boundedObject(
  obj: Record<string, unknown>,
  max: number,
  keep: readonly string[] = [],
): Record<string, unknown> {
  // Deeper than MAX_JSON_DEPTH counts as too large: the report is read back under that bound
  // (compare/read.ts), and the measure itself never recurses.
  const extent = jsonExtent(obj, { maxDepth: MAX_JSON_DEPTH, maxLength: max });
  if ('length' in extent && extent.length <= max) return obj;
  const out: Record<string, unknown> = { _truncated: true };
  const keys = [...keep.filter((k) => Object.hasOwn(obj, k)), ...Object.keys(obj).filter((k) => !keep.includes(k))];
  for (const k of keys.slice(0, 32 + keep.length)) {
    const v = obj[k];
    if (typeof v === 'boolean' || typeof v === 'number' || v === null) out[bounded(k, 64)] = v;
    else if (typeof v === 'string') out[bounded(k, 64)] = bounded(v, 256);
  }
  return out;
}

/** `serverInfo` as the report promises it: string name and version, bounded. */
export function serverInfoOf(
  info: Record<string, unknown> | undefined,
): { name?: string; version?: string } | undefined {
  if (!info) return undefined;
  const str = (v: unknown) =>
    typeof v === 'string' ? bounded(v, 200) : v === undefined ? undefined : bounded(shallowJson(v), 200);
  return { ...boundedObject(info, 2_000), name: str(info.name), version: str(info.version) };
}

/** A value's JSON, or a word for one nested too deep to write (JSON.stringify would overflow the stack). */
function shallowJson(v: unknown): string {
  return 'tooDeep' in jsonExtent(v, { maxDepth: MAX_JSON_DEPTH }) ? '(nested too deep)' : (JSON.stringify(v) ?? '');
}
