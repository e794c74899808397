/**
 * The lock file (`idemscan lock`, default `idemscan.lock.json`): per server, its tools as reviewed,
 * each with its definitionHash (docs/DEFINITION-HASH.md), verdict and the four hints as received.
 * `scan --baseline` compares a fresh report with it (drift.ts). Built from a finished report, so it
 * holds only what the report holds: redacted, bounded text.
 */
import { HINT_NAMES } from '../model/verdicts.js';
import type { Report } from '../model/schema.js';
import { LOCK_VERSION, LockFile, type LockServer } from '../model/lock.js';
import { describeZodError } from '../model/zod-errors.js';
import { readText, ReportFileError, versionedJson } from './read.js';

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

/** Reads and validates a lock file; a file that cannot be used throws ReportFileError naming it (and `field`, the flag). */
export async function readLockFile(file: string, field?: string): Promise<LockFile> {
  const doc = versionedJson(await readText(file, field), file, 'lock file', 'lockVersion', LOCK_VERSION, field);
  const parsed = LockFile.safeParse(doc);
  if (!parsed.success)
    throw new ReportFileError(file, `invalid lock file: ${describeZodError('', parsed.error)}`, field);
  return parsed.data;
}
