/**
 * The lock file (`idemscan lock`, default `idemscan.lock.json`): per server, its tools as reviewed,
 * each with its definitionHash (docs/DEFINITION-HASH.md), verdict and the four hints as received.
 * `scan --baseline` compares a fresh report with it (drift.ts). Built from a finished report, so it
 * holds only what the report holds: redacted, bounded text.
 */
import { z } from 'zod';
import { HINT_NAMES } from '../model/verdicts.js';
import { Verdict, type Report } from '../model/schema.js';
import { describeZodError } from '../model/zod-errors.js';
import { readText, ReportFileError, versionedJson } from './read.js';

export const LOCK_VERSION = '1';
export const DEFAULT_LOCK_FILE = 'idemscan.lock.json';

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

export function lockOf(report: Report): LockFile {
  const servers = report.servers
    .map((s): LockServer => ({
      name: s.name,
      status: s.status,
      tools: s.tools.map((t) => ({
        name: t.name,
        ...(t.definitionHash === undefined ? {} : { definitionHash: t.definitionHash, fieldHashes: t.fieldHashes }),
        verdict: t.verdict,
        hints: receivedHints(t.annotations),
        ...(t.description === undefined ? {} : { description: t.description }),
      })),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { lockVersion: LOCK_VERSION, tool: report.tool, lockedAt: report.startedAt, servers };
}

function receivedHints(annotations: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const h of HINT_NAMES) if (annotations && Object.hasOwn(annotations, h)) out[h] = annotations[h];
  return out;
}

/** Reads and validates a lock file; a file that cannot be used throws ReportFileError naming it. */
export async function readLockFile(file: string): Promise<LockFile> {
  const doc = versionedJson(await readText(file), file, 'lock file', 'lockVersion', LOCK_VERSION);
  const parsed = LockFile.safeParse(doc);
  if (!parsed.success) throw new ReportFileError(file, `invalid lock file: ${describeZodError('', parsed.error)}`);
  return parsed.data;
}
