/**
 * Who writes a spool (its header's `writer`): a scan that finds a spool under its --out tells one a
 * scan is writing right now (another shard or list scanning into the same folder, the same scan
 * started twice) from one an interrupted scan left, and leaves the first alone.
 */
import os from 'node:os';
import type { SpoolWriter } from '../model/spool-schema.js';

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
