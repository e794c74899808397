/**
 * The remedies that are an annotation: the exact hints a finding's `fix` tells the author to add.
 * Only where the evidence decides them; a tool with no hints and nothing else to go by gets none,
 * since any object we printed would be a guess the author might paste unread.
 */
import type { Finding } from '../../model/schema.js';

type Fix = NonNullable<Finding['fix']>;

/** Words by which a description says each call replaces what was there: the same call twice leaves the same state. */
const OVERWRITE_WORDS = new Set([
  'overwrite',
  'overwrites',
  'overwriting',
  'overwritten',
  'upsert',
  'upserts',
  'upserting',
]);

/** True when the description says the tool overwrites (or upserts). Split on non-letters: linear, no backtracking. */
export function describesOverwrite(description: unknown): boolean {
  if (typeof description !== 'string') return false;
  return description
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((w) => OVERWRITE_WORDS.has(w));
}

export const readOnlyFix = (): Fix => ({ annotations: { readOnlyHint: true } });

/**
 * An overwrite is a write, idempotent (the second call changes nothing), and destructive in the
 * spec's sense: destructiveHint false means "only additive updates", which replacing data is not.
 */
export const overwriteFix = (): Fix => ({
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
});

/** `"true"` / `"false"` as strings: the boolean the author meant. Any other value is no clear intent. */
export function booleanFix(hint: string, value: unknown): Fix | undefined {
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return word === 'true' || word === 'false' ? { annotations: { [hint]: word === 'true' } } : undefined;
}
