/**
 * Processes found by a marker in their environment: a sandboxed server's children have PIDs of
 * their own namespace and cannot write the fixture log, but the host's /proc still lists them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isRunning } from './processes.js';

export function tagged(tag: string): number[] {
  const needle = `\0ESCAPE_TAG=${tag}\0`;
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)
    .map(Number)
    .filter((pid) => {
      try {
        return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(needle) && isRunning(pid);
      } catch {
        return false;
      }
    });
}

/** Test hygiene: whatever a failed assertion left running is ended. */
export function killTagged(tag: string): void {
  for (const pid of tagged(tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
