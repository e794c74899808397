/**
 * Zod issues as a user can act on them: `file: servers[2].tools[0].verdict: Invalid option: ...`,
 * the path written the way the field appears in the file. Used for target files and report files.
 */
import type { z } from 'zod';

/** `servers[2]` + `["url"]` -> `servers[2].url`; `''` + `[]` -> `(top level)`. */
export function zodPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out === '' ? '' : '.'}${String(p)}`;
  return out || '(top level)';
}

/** The first `max` issues, `path: message`, joined with `; `, then how many more there were. */
export function describeZodError(prefix: string, error: z.ZodError, max = 3): string {
  const shown = error.issues.slice(0, max).map((issue) => `${zodPath(prefix, issue.path)}: ${issue.message}`);
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}
