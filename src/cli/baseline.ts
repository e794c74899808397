/**
 * The lock files of a scan: `idemscan lock [FILE...]` is a scan that writes the lock file
 * (`--lock PATH`, default idemscan.lock.json) pinning every tool's definitionHash, verdict and
 * hints; `--baseline LOCK` on scan, audit and lock compares the fresh report with a lock
 * (report.drift, a listing on stderr, `--fail-on drift`). The comparison itself is
 * src/compare/drift.ts. Not a command module: cli/commands.ts imports it when a run needs it.
 */
import path from 'node:path';
import { driftOf } from '../compare/drift.js';
import { renderDrift } from '../render/drift.js';
import { lockOf, readLockFile } from '../compare/lock.js';
import type { LockFile } from '../model/lock.js';
import { ReportFileError } from '../compare/read.js';
import type { Report } from '../model/schema.js';
import { safeText } from '../render/terminal.js';
import type { ScanFlags } from './flags.js';
import { UsageError } from './exit.js';
import type { FailOn } from './fail-on.js';
import { checkOutputFile, checkRulesBaseUrl, codeOf, writeFallback, writeOutputFile } from './output.js';

/** What `--baseline`, `--lock` and `--rules-base-url` need before the scan starts; usage errors early. */
export async function prepareBaseline(flags: ScanFlags, failOn: FailOn | undefined): Promise<LockFile | undefined> {
  if (flags.rulesBaseUrl !== undefined) checkRulesBaseUrl(flags.rulesBaseUrl);
  if (failOn?.drift && flags.baseline === undefined)
    throw new UsageError('--fail-on drift needs --baseline LOCK (a file written by idemscan lock)');
  if (flags.lock !== undefined) await checkOutputFile('--lock', flags.lock);
  if (flags.baseline === undefined) return undefined;
  try {
    return await readLockFile(flags.baseline);
  } catch (err) {
    if (err instanceof ReportFileError) throw new UsageError(`--baseline ${safeText(err.message, 1_000)}`);
    throw err;
  }
}

/** Adds report.drift and lists it on stderr (the listing is what a CI log shows; -q keeps only drift). */
export function applyBaseline(report: Report, lock: LockFile, flags: ScanFlags): void {
  report.drift = driftOf(report, lock, flags.baseline!);
  if (report.drift.drifted || !flags.quiet) process.stderr.write(renderDrift(report.drift));
}

/** Writes the lock file after the scan (a fallback file when it cannot, named on stderr); false if it could not. */
export async function writeLock(report: Report, file: string, quiet: boolean | undefined): Promise<boolean> {
  const data = JSON.stringify(lockOf(report), null, 2) + '\n';
  for (const s of report.servers.filter((x) => x.status === 'failed')) {
    process.stderr.write(
      `idemscan: ${safeText(s.name, 80)} failed: locked with no tools (run lock again when it answers)\n`,
    );
  }
  try {
    await writeOutputFile(file, data);
    if (!quiet) process.stderr.write(`idemscan: wrote ${safeText(file, 300)}\n`);
    return true;
  } catch (err) {
    const saved = await writeFallback(path.basename(file), data).catch(() => undefined);
    process.stderr.write(
      `idemscan: cannot write ${safeText(file, 300)} (${codeOf(err)}); ${saved ? `the lock is saved in ${saved}` : 'no fallback file could be written either'}\n`,
    );
    return false;
  }
}
