// The lock file: each server's tools as reviewed (docs/DEFINITION-HASH.md).
import { z } from 'zod';
import { Verdict } from './schema.js';

export const LOCK_VERSION = '1';

export const LockTool = z.object({
  name: z.string(),
  /** Absent when unhashable. */
  definitionHash: z.string().optional(),
  fieldHashes: z.record(z.string(), z.string()).optional(),
  verdict: Verdict,
  /** As received, any JSON value; absent ones left out. */
  hints: z.record(z.string(), z.unknown()),
  /** Bounded and redacted, to show what an edit changed. */
  description: z.string().optional(),
});

export const LockServer = z.object({
  name: z.string(),
  /** A failed server pins no tools: every tool it lists later is new. */
  status: z.enum(['ok', 'failed']),
  tools: z.array(LockTool),
});

export const LockFile = z.object({
  lockVersion: z.literal(LOCK_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  lockedAt: z.string(),
  /** Sorted by name, so the file diffs well in review. */
  servers: z.array(LockServer),
});

export type LockTool = z.infer<typeof LockTool>;
export type LockServer = z.infer<typeof LockServer>;
export type LockFile = z.infer<typeof LockFile>;

export function lockJsonSchema(): unknown {
  return z.toJSONSchema(LockFile, { target: 'draft-2020-12', io: 'output' });
}
