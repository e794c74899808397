/**
 * The one place a target gets its kind: from the flat fields a reader or a library caller gives
 * (`TargetInput`), once they are checked (a reader's schema, scan-input.ts for `scan()`).
 */
import type { Target, TargetInput } from './types.js';

/**
 * The input as the target of its kind. Its other fields ride along as they came (a url entry's
 * `env`, which the report lists as given), hence the casts: the type shows only the kind's own.
 */
export function toTarget(t: TargetInput): Target {
  if (t.transport === 'static')
    return { ...t, kind: 'saved', transport: 'static', saved: t.saved ?? { tools: [] } } as Target;
  if (t.transport !== 'stdio') return { ...t, kind: 'remote', transport: t.transport, url: t.url ?? '' } as Target;
  if (t.command !== undefined) return { ...t, kind: 'command', transport: 'stdio', command: t.command } as Target;
  return { ...t, kind: 'package', transport: 'stdio' } as Target;
}
