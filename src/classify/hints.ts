/** The four behaviour hints: as received, and as a client must assume them (spec defaults). */
import type { EffectiveHints } from '../report/schema.js';

export const HINTS = {
  readOnlyHint: { field: 'readOnly', default: false },
  destructiveHint: { field: 'destructive', default: true },
  idempotentHint: { field: 'idempotent', default: false },
  openWorldHint: { field: 'openWorld', default: true },
} as const;

export type HintName = keyof typeof HINTS;
export const HINT_NAMES = Object.keys(HINTS) as HintName[];

/** A hint that is present but not a boolean counts as absent: the default applies. */
export function effectiveHints(annotations: Record<string, unknown> | undefined): EffectiveHints {
  const out = {} as EffectiveHints;
  for (const name of HINT_NAMES) {
    const value = annotations?.[name];
    out[HINTS[name].field] = typeof value === 'boolean' ? value : HINTS[name].default;
  }
  return out;
}

/** Annotated: at least one behaviour hint given as a boolean (a title alone says nothing). */
export function isAnnotated(annotations: Record<string, unknown> | undefined): boolean {
  return HINT_NAMES.some((name) => typeof annotations?.[name] === 'boolean');
}
