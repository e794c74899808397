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
import { InputError } from '../model/input-error.js';
import type { LockFile } from '../model/lock.js';
import type { Report } from '../model/schema.js';
import { msg, rendered, show } from '../render/message.js';
import type { ScanFlags } from './flags.js';
import type { FailOn } from './fail-on.js';
import { checkOutputFile, checkRulesBaseUrl, codeOf, writeFallback, writeOutputFile } from './output.js';
import { lines, note, tell } from './say.js';

/** What `--baseline`, `--lock` and `--rules-base-url` need before the scan starts; input errors early. */
export async function prepareBaseline(flags: ScanFlags, failOn: FailOn | undefined): Promise<LockFile | undefined> {
  if (flags.rulesBaseUrl !== undefined) checkRulesBaseUrl(flags.rulesBaseUrl);
  if (failOn?.drift && flags.baseline === undefined)
    throw new InputError('--fail-on drift needs --baseline LOCK (a file written by idemscan lock)');
  if (flags.lock !== undefined) await checkOutputFile('--lock', flags.lock);
  return flags.baseline === undefined ? undefined : readLockFile(flags.baseline, '--baseline');
}

/** Adds report.drift and lists it on stderr (the listing is what a CI log shows; -q keeps only drift). */
export function applyBaseline(report: Report, lock: LockFile, flags: ScanFlags): void {
  report.drift = driftOf(report, lock, flags.baseline!);
  // renderDrift escapes what it quotes.
  lines(rendered(renderDrift(report.drift)), report.drift.drifted);
}

/** Writes the lock file after the scan (a fallback file when it cannot, named on stderr); false if it could not. */
export async function writeLock(report: Report, file: string): Promise<boolean> {
  const data = JSON.stringify(lockOf(report), null, 2) + '\n';
  for (const s of report.servers.filter((x) => x.status === 'failed'))
    tell(msg`${show.name(s.name)} failed: locked with no tools (run lock again when it answers)`);
  try {
    await writeOutputFile(file, data);
    note(msg`wrote ${show.path(file)}`);
    return true;
  } catch (err) {
    const saved = await writeFallback(path.basename(file), data).catch(() => undefined);
    const where = saved ? msg`the lock is saved in ${show.path(saved)}` : msg`no fallback file could be written either`;
    tell(msg`cannot write ${show.path(file)} (${codeOf(err)}); ${where}`);
    return false;
  }
}
