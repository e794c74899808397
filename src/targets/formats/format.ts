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

/** Kept here for the formats that import it from this module. */
export { describeZodError } from '../../model/zod-errors.js';

export function entryName(key: string): string {
  return key.trim() || '(unnamed)';
}
