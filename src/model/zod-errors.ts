// Paths written the way the field appears in the file: `servers[2].tools[0].verdict`.
import type { z } from 'zod';
import { bounded } from './bounds.js';

/** `servers[2]` + `["url"]` -> `servers[2].url`; `''` + `[]` -> `(top level)`. */
export function zodPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out === '' ? '' : '.'}${String(p)}`;
  return out || '(top level)';
}

/** Unknown fields first: a misspelt `comand` causes the "command is required" after it. */
export function describeZodError(prefix: string, error: z.ZodError, max = 3): string {
  const unknown = error.issues.filter((i) => i.code === 'unrecognized_keys');
  const issues = [...unknown, ...error.issues.filter((i) => i.code !== 'unrecognized_keys')];
  const shown = issues.slice(0, max).map((issue) => `${zodPath(prefix, issue.path)}: ${issueText(issue)}`);
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return issue.message;
  const keys = issue.keys.slice(0, 5).map((k) => JSON.stringify(bounded(k, 80)));
  return `unknown field${issue.keys.length === 1 ? '' : 's'} ${keys.join(', ')}${issue.keys.length > 5 ? `, and ${issue.keys.length - 5} more` : ''}`;
}
