/**
 * The lock file (`idemscan lock`, default `idemscan.lock.json`): its zod schema = types = JSON
 * Schema. Per server, its tools as reviewed, each with its definitionHash (docs/DEFINITION-HASH.md),
 * verdict and the four hints as received. Made and read by compare/lock.ts.
 */
import { z } from 'zod';
import { Verdict } from './schema.js';

export const LOCK_VERSION = '1';

export const LockTool = z.object({
  name: z.string(),
  /** Absent when the definition could not be hashed (finding `definition-unhashable`). */
  definitionHash: z.string().optional(),
  fieldHashes: z.record(z.string(), z.string()).optional(),
  verdict: Verdict,
  /** readOnlyHint, destructiveHint, idempotentHint, openWorldHint as received (any JSON value); absent ones are left out. */
  hints: z.record(z.string(), z.unknown()),
  /** The description as the report kept it (bounded, redacted): to show what an edit changed. */
  description: z.string().optional(),
});

export const LockServer = z.object({
  name: z.string(),
  /** A server that failed when locked pins no tools: every tool it lists later is new. */
  status: z.enum(['ok', 'failed']),
  tools: z.array(LockTool),
});

export const LockFile = z.object({
  lockVersion: z.literal(LOCK_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  /** When the scan it was made from started. */
  lockedAt: z.string(),
  /** Sorted by name (code units), so that the file diffs well in review. */
  servers: z.array(LockServer),
});

export type LockTool = z.infer<typeof LockTool>;
export type LockServer = z.infer<typeof LockServer>;
export type LockFile = z.infer<typeof LockFile>;

export function lockJsonSchema(): unknown {
  return z.toJSONSchema(LockFile, { target: 'draft-2020-12', io: 'output' });
}
