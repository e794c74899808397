/** Spawn accounting for fixture servers: each fixture logs "<name> <pid>" to IDEMSCAN_FIXTURE_LOG. */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function spawnLog(): { file: string; text(): string; entries(): { name: string; pid: number }[] } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'idemscan-log-')), 'spawns.log');
  return {
    file,
    /** The raw log, for an assertion's message. */
    text: () => (existsSync(file) ? readFileSync(file, 'utf8') : '(no log)'),
    entries: () =>
      existsSync(file)
        ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => {
            const [name, pid] = line.split(' ');
            return { name: name!, pid: Number(pid) };
          })
        : [],
  };
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function waitGone(pids: number[], ms = 3000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = pids.filter(isRunning);
  while (alive.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter(isRunning);
  }
  return alive;
}
