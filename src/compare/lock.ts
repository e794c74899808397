/** The lock file: per server, each tool's definitionHash, verdict and hints as the (redacted) report holds them. */
import { HINT_NAMES } from '../model/verdicts.js';
import type { Report, ServerReport } from '../model/schema.js';
import { foldOver, type ReportHead, type ServerFold } from '../model/report-head.js';
import { parseJson } from '../model/bounded-input.js';
import { topLevelArray } from '../model/json-items.js';
import { clip } from '../model/cut.js';
import { LOCK_VERSION, LockFile, LockServer } from '../model/lock.js';
import { lockedServers, type LockedServers } from './drift.js';
import { describeZodError } from '../model/zod-errors.js';
import { readBytes, readText, ReportFileError, SAVED_BOUNDS, versionedJson } from './read.js';

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

/** Checked a server at a time (docs/INTERNALS.md, Depth): parsed whole, a 10,000-server lock took 160 MB. */
export async function readLockedServers(file: string, field?: string): Promise<LockedServers> {
  const bytes = await readBytes(file, field);
  const array = topLevelArray(bytes, 'servers');
  if (array && 'duplicate' in array)
    throw new ReportFileError(
      file,
      `ambiguous lock file: its top-level key ${JSON.stringify(clip(array.duplicate, 100))} appears twice (JSON readers differ on which one counts)`,
      field,
    );
  if (!array) return lockedServers(await readLockFile(file, field));
  const rest = `${bytes.toString('utf8', 0, array.start)}[]${bytes.toString('utf8', array.end)}`;
  const head = LockFile.safeParse(versionedJson(rest, file, 'lock file', 'lockVersion', LOCK_VERSION, field));
  const invalid = (detail: string) => new ReportFileError(file, `invalid lock file: ${detail}`, field);
  if (!head.success) throw invalid(describeZodError('', head.error));
  const bounds = { ...SAVED_BOUNDS, maxDepth: SAVED_BOUNDS.maxDepth - 2 };
  const servers = new Map<string, readonly [number, number]>();
  array.items.forEach(([start, end], i) => {
    const item = parseJson(bytes.toString('utf8', start, end), bounds);
    if ('error' in item)
      throw new ReportFileError(
        file,
        `${item.why === 'syntax' ? 'not valid JSON: ' : ''}servers[${i}]: ${item.error}`,
        field,
      );
    const server = LockServer.safeParse(item.value);
    if (!server.success) throw invalid(describeZodError(`servers[${i}]`, server.error));
    servers.set(server.data.name, [start, end]);
  });
  return { lockedAt: head.data.lockedAt, bytes, servers };
}

/** A file that cannot be used throws ReportFileError naming it (and `field`, the flag). */
export async function readLockFile(file: string, field?: string): Promise<LockFile> {
  const doc = versionedJson(await readText(file, field), file, 'lock file', 'lockVersion', LOCK_VERSION, field);
  const parsed = LockFile.safeParse(doc);
  if (!parsed.success)
    throw new ReportFileError(file, `invalid lock file: ${describeZodError('', parsed.error)}`, field);
  return parsed.data;
}
