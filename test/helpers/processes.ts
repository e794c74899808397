/** Spawn accounting for fixture servers: each fixture logs "<name> <pid>" to IDEMSCAN_FIXTURE_LOG. */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, existsSync } from 'node:fs';
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
        ? readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((line) => {
              const [name, pid] = line.split(' ');
              return { name: name!, pid: resolvePid(pid ?? '') };
            })
        : [],
  };
}

/**
 * The host pid of a logged pid: a number as is; `pid:[<inode>]:<n>` (a server in a PID namespace
 * with a /proc of its own, see _common.mjs hostPid) is looked up in the host's /proc now, and is
 * 0 once that process is gone.
 */
function resolvePid(logged: string): number {
  const at = logged.lastIndexOf(':');
  if (at < 0) return Number(logged);
  const [ns, nsPid] = [logged.slice(0, at), logged.slice(at + 1)];
  for (const d of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (readlinkSync(`/proc/${d}/ns/pid`) !== ns) continue;
      const nspid = /^NSpid:(.*)$/m
        .exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]
        ?.trim()
        .split(/\s+/)
        .at(-1);
      if (nspid === nsPid) return Number(d);
    } catch {
      // gone meanwhile, or not ours to look at
    }
  }
  return 0;
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  if (!(pid > 0)) return false;
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
