/** The lock file `lock` writes, and the one `--baseline` compares with (compare/drift.ts). */
import path from 'node:path';
import { renderDrift } from '../../render/drift.js';
import type { LockedServers } from '../../compare/drift.js';
import { lockFileOf, lockFold, readLockedServers } from '../../compare/lock.js';
import { InputError } from '../../model/input-error.js';
import type { Drift } from '../../model/schema.js';
import type { ReportStream } from '../../model/report-head.js';
import { msg, rendered, show } from '../../render/message.js';
import { checkOutputFile, checkRulesBaseUrl, codeOf, writeFallback, writeOutputFile } from '../output.js';
import type { Say } from '../say.js';

/** The flags of a scan that name lock files (and --rules-base-url, checked with them). */
export interface LockSettings {
  baseline?: string;
  lock?: string;
  rulesBaseUrl?: string;
}

export interface Baseline {
  lock: LockedServers;
  file: string;
}

export async function prepareBaseline(flags: LockSettings, drift: boolean | undefined): Promise<Baseline | undefined> {
  if (flags.rulesBaseUrl !== undefined) checkRulesBaseUrl(flags.rulesBaseUrl);
  if (drift && flags.baseline === undefined)
    throw new InputError('--fail-on drift needs --baseline LOCK (a file written by idemscan lock)');
  if (flags.lock !== undefined) await checkOutputFile('--lock', flags.lock);
  if (flags.baseline === undefined) return undefined;
  // Checked whole before the scan (a bad file is a usage error), then kept as JSON per server.
  return { lock: await readLockedServers(flags.baseline, '--baseline'), file: flags.baseline };
}

/** The drift listed on stderr (what a CI log shows; -q keeps it only when something drifted). */
export function tellDrift(drift: Drift, say: Say): void {
  // renderDrift escapes what it quotes.
  say.lines(rendered(renderDrift(drift)), drift.drifted);
}

export async function writeLock(report: ReportStream, file: string, say: Say): Promise<boolean> {
  // The fold ran in the scan's first pass (app/scan/scan-run.ts), so the servers are not read again.
  const servers = report.fold(lockFold);
  const data = JSON.stringify(lockFileOf(report.head, servers), null, 2) + '\n';
  for (const s of servers.filter((x) => x.status === 'failed'))
    say.tell(msg`${show.name(s.name)} failed: locked with no tools (run lock again when it answers)`);
  try {
    await writeOutputFile(file, data);
    say.note(msg`wrote ${show.path(file)}`);
    return true;
  } catch (err) {
    const saved = await writeFallback(path.basename(file), data).catch(() => undefined);
    const where = saved ? msg`the lock is saved in ${show.path(saved)}` : msg`no fallback file could be written either`;
    say.tell(msg`cannot write ${show.path(file)} (${codeOf(err)}); ${where}`);
    return false;
  }
}
