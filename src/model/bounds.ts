import { jsonExtent, MAX_JSON_DEPTH } from './bounded-input.js';
import { cutHead, cutTail } from './cut.js';

/** Cut server text with this, never `.slice`: docs/INTERNALS.md, "Redaction". */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutHead(text, max); // never half a surrogate pair
  return `${kept}… [${text.length - kept.length} more characters]`;
}

export function boundedTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = cutTail(text, max);
  return `[${text.length - kept.length} earlier characters] …${kept}`;
}

/** Cuts come before redaction, so the redactor finds them here. Group 1: a head cut; group 2: a tail. */
export const CUT_MARK = /(… \[\d{1,16} more characters\])|(\[\d{1,16} earlier characters\] …)/g;

export const DESCRIPTION_LIMIT = 4_000;
const MARK = /… \[\d+ more characters\]$/;

/** Descriptions are cut once, on arrival; cutting again must not change the count it reports. */
export function boundedDescription(text: string): string {
  return text.length <= DESCRIPTION_LIMIT + 40 && MARK.test(text) ? text : bounded(text, DESCRIPTION_LIMIT);
}

/** Past `max`, only scalar fields, `keep` first so they survive whatever else the server sent. */
export function boundedObject(
  obj: Record<string, unknown>,
  max: number,
  keep: readonly string[] = [],
): Record<string, unknown> {
  // Deeper than MAX_JSON_DEPTH counts as too large: the report is read back under that bound.
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

export function serverInfoOf(
  info: Record<string, unknown> | undefined,
): { name?: string; version?: string } | undefined {
  if (!info) return undefined;
  const str = (v: unknown) =>
    typeof v === 'string' ? bounded(v, 200) : v === undefined ? undefined : bounded(shallowJson(v), 200);
  return { ...boundedObject(info, 2_000), name: str(info.name), version: str(info.version) };
}

/** JSON.stringify would overflow the stack. */
function shallowJson(v: unknown): string {
  return 'tooDeep' in jsonExtent(v, { maxDepth: MAX_JSON_DEPTH }) ? '(nested too deep)' : (JSON.stringify(v) ?? '');
}
