/**
 * Who writes a spool (its header's `writer`): a scan that finds a spool under its --out tells one a
 * scan is writing right now (another shard or list scanning into the same folder, the same scan
 * started twice) from one an interrupted scan left, and leaves the first alone: beside a running
 * scan's spool of the same name a scan writes its own at that name plus its pid.
 */
import { linkSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SPOOL_NAME } from '../model/formats.js';
import type { SpoolWriter } from '../model/spool-schema.js';
import { readSpoolHeader } from './read-spool.js';
import type { SpoolKey } from './spool-mac.js';

const host = () => os.hostname().slice(0, 300);

/** This process, as a spool's header records it. */
export function thisWriter(): SpoolWriter {
  const started = processStart(process.pid);
  return { pid: process.pid, host: host(), ...(started ? { started } : {}) };
}

/**
 * When process `pid` started, as `boot-id:ticks` (field 22 of /proc/PID/stat, after the command
 * name, which may hold spaces and parentheses, so the fields are read after its last `)`), or
 * undefined where there is no /proc.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return ticks ? `${boot}:${ticks}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `writer` is another process of this host that still runs. A pid taken since by some other
 * process is told apart by its start time where the header has one (spools of this version); for
 * older headers it reads as running, and the callers say which pid, so the user can tell.
 */
export function isRunning(writer: SpoolWriter | undefined): writer is SpoolWriter {
  // A pid of 0 or below would signal a process group: the schema refuses them, and so does this.
  if (!writer || writer.pid <= 0 || writer.pid === process.pid || writer.host !== host()) return false;
  let alive: boolean;
  try {
    process.kill(writer.pid, 0);
    alive = true;
  } catch (err) {
    alive = (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!alive || writer.started === undefined) return alive;
  const now = processStart(writer.pid);
  return now === undefined || now === writer.started;
}

/** The spools under `out` (each name spoolFileOf() gives) that a scan running now writes: name and writer. */
export function runningSpools(out: string, key: SpoolKey): { name: string; writer: SpoolWriter }[] {
  let names: string[];
  try {
    names = readdirSync(out).filter((n) => SPOOL_NAME.test(n));
  } catch {
    return [];
  }
  const running = [];
  for (const name of names.sort()) {
    const writer = readSpoolHeader(path.join(out, name), key)?.writer;
    if (isRunning(writer)) running.push({ name, writer });
  }
  return running;
}

/**
 * An interrupted scan's spool written beside a running scan's (at `file`.PID): moved to `home`, the
 * name --resume reads, when that is free by now (a hard link, so never over a spool there). Returns
 * where the spool is.
 */
export function moveHome(file: string, home: string): string {
  try {
    linkSync(file, home);
  } catch {
    return file;
  }
  unlinkSync(file);
  return home;
}
