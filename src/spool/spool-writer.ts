// A spool a running scan writes (another shard, the same scan twice) is left alone, not taken for a resumable one.
import { linkSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SPOOL_NAME } from '../model/formats.js';
import type { SpoolWriter } from '../model/spool-schema.js';
import { readSpoolHeader } from './read-spool.js';
import type { SpoolKey } from './spool-mac.js';

const host = () => os.hostname().slice(0, 300);

export function thisWriter(): SpoolWriter {
  const started = processStart(process.pid);
  return { pid: process.pid, host: host(), ...(started ? { started } : {}) };
}

/** `boot-id:ticks`: field 22 of /proc/PID/stat, read after the last `)` as the command may hold one. */
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

/** A reused pid is told apart by its start time; without one it reads as running, and callers name the pid. */
export function isRunning(writer: SpoolWriter | undefined): writer is SpoolWriter {
  // A pid of 0 or below would signal a process group.
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

/** A hard link, so never over a spool there; returns where the spool is. */
export function moveHome(file: string, home: string): string {
  try {
    linkSync(file, home);
  } catch {
    return file;
  }
  unlinkSync(file);
  return home;
}
