import type { z } from 'zod';
import type { ExpandContext } from '../expand.js';
import type { LoadedTargets } from '../types.js';

export interface FormatContext extends ExpandContext {
  file: string;
}

/** A target-file format: recognises its own shape and turns it into targets. */
export interface TargetFormat {
  id: string;
  detect(doc: Record<string, unknown>): boolean;
  read(doc: Record<string, unknown>, ctx: FormatContext): LoadedTargets;
}

/** `servers[2].url: Invalid URL` — the field path a user can find in the file. */
export function describeZodError(prefix: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
      return `${prefix}${path}: ${issue.message}`;
    })
    .join('; ');
}

export function entryName(key: string): string {
  return key.trim() || '(unnamed)';
}
