/**
 * The bubblewrap command line of `--sandbox` (docs/SANDBOX.md says what it protects). The whole
 * system is read-only; the places that hold the user's secrets and sockets are replaced by empty
 * private tmpfs; the server's own files (command, path arguments, cwd, npm cache entry) are bound
 * back read-only on top.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Homes hold keys and tokens; /run and the temp dirs hold sockets (ssh-agent, Docker, D-Bus),
 * which a read-only mount does not stop anyone connecting to; /mnt and /media hold mounted disks
 * (a Windows drive under WSL). Each becomes an empty tmpfs: /tmp and HOME are then scratch space. */
const HIDDEN = ['/home', '/root', '/run', '/tmp', '/var/tmp', '/mnt', '/media'];

export interface BwrapPlan {
  /** The user's HOME: hidden like the other homes, then an empty writable directory. */
  home: string | undefined;
  readable: string[];
  writable: string[];
  cwd: string;
}

export function bwrapArgs(plan: BwrapPlan): string[] {
  const hidden = HIDDEN.map((d) => safeRealpath(d)).filter((d): d is string => !!d && d !== '/');
  const home = plan.home && path.isAbsolute(plan.home) ? (safeRealpath(plan.home) ?? plan.home) : undefined;
  const homeInside = home !== undefined && hidden.some((h) => within(home, h));
  if (home && home !== '/' && !homeInside && existsSync(home)) hidden.push(home);
  const args = [
    '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    // The namespace ends with idemscan (even on SIGKILL); no terminal to inject keystrokes into;
    // no capabilities even for root (bwrap itself sets no-new-privileges).
    '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
    '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev',
  ];
  for (const dir of [...new Set(hidden)]) args.push('--tmpfs', dir);
  if (home && homeInside) args.push('--dir', home);
  // Parents before children so that a later bind does not cover an earlier one; rw after ro.
  const binds = [
    ...reveal(plan.readable, hidden, home).map((p) => ({ p, flag: '--ro-bind' })),
    ...reveal(plan.writable, hidden, home, true).map((p) => ({ p, flag: '--bind' })),
  ].sort((a, b) => depth(a.p) - depth(b.p) || (a.flag === b.flag ? 0 : a.flag === '--ro-bind' ? -1 : 1));
  for (const { p, flag } of binds) args.push(flag, p, p);
  args.push('--chdir', plan.cwd);
  return args;
}

/**
 * The real paths to bind: readable ones only where a hidden directory covers them, writable ones
 * anywhere; never a hidden root,
 * HOME or a parent of HOME (that would undo the hiding). A file inside a package is revealed
 * with its package (its node_modules), not alone.
 */
function reveal(paths: string[], hidden: string[], home: string | undefined, exact = false): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const real = safeRealpath(p);
    if (!real) continue;
    const root = hidden.find((h) => within(real, h));
    // Outside the hidden roots a path is already readable (`/` is bound read-only), but a writable
    // one (an install-scripts cache entry under --cache-dir /srv/...) must still be bound.
    if (!root && !exact) continue;
    const target = exact || !root ? real : packageRoot(real, root, home) ?? real;
    if (target === root || target === '/' || (home !== undefined && within(home, target))) continue;
    out.add(target);
  }
  return [...out];
}

/** The nearest directory above a file that has a package.json, below `root` and HOME. */
function packageRoot(file: string, root: string, home: string | undefined): string | undefined {
  if (!isFile(file)) return undefined;
  for (let dir = path.dirname(file); dir !== root && dir !== home && within(dir, root); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return undefined;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `p` is `dir` or inside it. */
function within(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : dir + '/');
}

const depth = (p: string) => p.split('/').length;

export function safeRealpath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}
