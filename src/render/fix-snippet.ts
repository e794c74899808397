/**
 * A finding's `fix` as the author pastes it: shared by the terminal, Markdown and HTML views so
 * that all three say the same. The fix holds only hint names
 * idemscan wrote and booleans (classify/rules/fixes.ts), but is filtered again here: a saved
 * report is anyone's file, and nothing from it goes into a snippet unchecked.
 */
import type { Finding } from '../model/schema.js';
import { HINT_NAMES } from '../model/verdicts.js';

/** `{"readOnlyHint": true, "idempotentHint": true}`, in the spec's order of the hints; undefined when there is nothing to show. */
export function fixAnnotations(f: Finding): string | undefined {
  const a = f.fix?.annotations;
  if (!a) return undefined;
  const pairs = HINT_NAMES.filter((h) => typeof a[h] === 'boolean').map((h) => `"${h}": ${String(a[h])}`);
  return pairs.length ? `{${pairs.join(', ')}}` : undefined;
}
