/** Filtered again though idemscan wrote it: a saved report is anyone's file. */
import type { Finding } from '../model/schema.js';
import { HINT_NAMES } from '../model/verdicts.js';

/** In the spec's order of the hints; undefined when there is nothing to show. */
export function fixAnnotations(f: Finding): string | undefined {
  const a = f.fix?.annotations;
  if (!a) return undefined;
  const pairs = HINT_NAMES.filter((h) => typeof a[h] === 'boolean').map((h) => `"${h}": ${String(a[h])}`);
  return pairs.length ? `{${pairs.join(', ')}}` : undefined;
}
