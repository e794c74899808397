/** The four behaviour hints: as received, and as a client must assume them (spec defaults). */
import { clip } from '../model/cut.js';
import type { EffectiveHints } from '../model/schema.js';
import { effectiveHint, HINT_NAMES, HINTS } from '../model/verdicts.js';

export { HINT_NAMES } from '../model/verdicts.js';

/** A hint that is present but not a boolean counts as absent: the default applies. */
export function effectiveHints(annotations: Record<string, unknown> | undefined): EffectiveHints {
  const out = {} as EffectiveHints;
  for (const name of HINT_NAMES) out[HINTS[name].field] = effectiveHint(name, annotations);
  return out;
}

/** The report keeps a bounded copy, so rules about what was sent read this one. */
export function receivedAnnotations(raw: Record<string, unknown>): Record<string, unknown> | undefined {
  const a = raw.annotations;
  return a && typeof a === 'object' && !Array.isArray(a) ? (a as Record<string, unknown>) : undefined;
}

/** A hint value for a message, whatever it is: short, and never a walk of a deep object. */
export function describeHint(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value && typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(clip(value, 41));
  return String(value);
}
