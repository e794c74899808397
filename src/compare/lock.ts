/**
 * The lock file (`idemscan lock`, default `idemscan.lock.json`): per server, its tools as reviewed,
 * each with its definitionHash (docs/DEFINITION-HASH.md), verdict and the four hints as received.
 * `scan --baseline` compares a fresh report with it (drift.ts). Built from the servers as the
 * report shows them, a fold a scan runs in its first pass, so it holds only what the report holds
 * (redacted, bounded text) and needs no whole report.
 */
import { HINT_NAMES } from '../model/verdicts.js';
import type { Report, ServerReport } from '../model/schema.js';
import { foldOver, type ReportHead, type ServerFold } from '../model/report-head.js';
import { LOCK_VERSION, LockFile, type LockServer } from '../model/lock.js';
import { describeZodError } from '../model/zod-errors.js';
import { readText, ReportFileError, versionedJson } from './read.js';

export function lockOf(report: Report): LockFile {
  return lockFileOf(report, foldOver(report.servers, lockFold));
}

/** The lock's servers in the report's order (lockFileOf sorts them). */
export function lockFold(): ServerFold<LockServer[]> {
  const servers: LockServer[] = [];
  return { add: (s) => void servers.push(lockServer(s)), result: () => servers };
}

/** The lock file of a report's head and its servers (lockFold): sorted by name. */
export function lockFileOf(head: Pick<ReportHead, 'tool' | 'startedAt'>, servers: readonly LockServer[]): LockFile {
  const sorted = [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { lockVersion: LOCK_VERSION, tool: head.tool, lockedAt: head.startedAt, servers: sorted };
}

function lockServer(s: ServerReport): LockServer {
  return {
    name: s.name,
    status: s.status,
    tools: s.tools.map((t) => ({
      name: t.name,
      ...(t.definitionHash === undefined ? {} : { definitionHash: t.definitionHash, fieldHashes: t.fieldHashes }),
      verdict: t.verdict,
      hints: receivedHints(t.annotations),
      ...(t.description === undefined ? {} : { description: t.description }),
    })),
  };
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
