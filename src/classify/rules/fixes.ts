// Only where the evidence decides: a guessed fix is one an author might paste unread.
import type { Finding } from '../../model/schema.js';

type Fix = NonNullable<Finding['fix']>;

const OVERWRITE_WORDS = new Set([
  'overwrite',
  'overwrites',
  'overwriting',
  'overwritten',
  'upsert',
  'upserts',
  'upserting',
]);

export function describesOverwrite(description: unknown): boolean {
  if (typeof description !== 'string') return false;
  return description
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((w) => OVERWRITE_WORDS.has(w));
}

export const readOnlyFix = (): Fix => ({ annotations: { readOnlyHint: true } });

/** Destructive: the spec's destructiveHint false means "only additive updates". */
export const overwriteFix = (): Fix => ({
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
});

/** `"true"` / `"false"` as strings; any other value is no clear intent. */
export function booleanFix(hint: string, value: unknown): Fix | undefined {
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return word === 'true' || word === 'false' ? { annotations: { [hint]: word === 'true' } } : undefined;
}
