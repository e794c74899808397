/**
 * Who writes a spool (its header's `writer`): a scan that finds a spool under its --out tells one a
 * scan is writing right now (another shard or list scanning into the same folder, the same scan
 * started twice) from one an interrupted scan left, and leaves the first alone: beside a running
 * scan's spool of the same name a scan writes its own at that name plus its pid.
 */
import { linkSync, readdirSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SPOOL_NAME } from '../model/formats.js';
import type { SpoolWriter } from '../model/spool-schema.js';
import { readSpoolHeader } from './read-spool.js';
import type { SpoolKey } from './spool-mac.js';

const host = () => os.hostname().slice(0, 300);

/** This process, as a spool's header records it. */
export function thisWriter(): SpoolWriter {
  return { pid: process.pid, host: host() };
}

/**
 * Whether `writer` is another process of this host that still runs. A pid taken since by some other
 * process reads as running too: the callers say which pid, so the user can tell.
 */
export function isRunning(writer: SpoolWriter | undefined): writer is SpoolWriter {
  // A pid of 0 or below would signal a process group: the schema refuses them, and so does this.
  if (!writer || writer.pid <= 0 || writer.pid === process.pid || writer.host !== host()) return false;
  try {
    process.kill(writer.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
