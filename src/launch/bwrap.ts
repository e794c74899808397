/** The bubblewrap command line of `--sandbox`; what it protects: docs/SANDBOX.md. */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isFile } from '../targets/file-kind.js';

/** Homes hold keys; /run and the temp dirs sockets a read-only mount does not close; /mnt and /media disks. */
export const HIDDEN = ['/home', '/root', '/run', '/tmp', '/var/tmp', '/mnt', '/media'];

/** The hidden roots under which a path a target names may be bound back (a checkout under /tmp). */
export const NAMED_ROOTS = ['/tmp', '/var/tmp'];

/** Entries a named directory's walk looks at before it gives up and binds nothing. */
const WALK_LIMIT = 100_000;

/** The size bound of each tmpfs (`--size`, bwrap >= 0.7): RAM a server can fill per hidden root. */
export const SCRATCH_BYTES = 64 * 1024 * 1024;

export interface BwrapPlan {
  /** The user's HOME: hidden like the other homes, then an empty writable directory. */
  home: string | undefined;
  homes?: string[];
  /** Hidden wherever they are, also under a directory bound back (idemscan's cache dir). */
  hide?: string[];
  /** Bound read-only on idemscan's word (the command, Node, the server's own cache entry). */
  readable: string[];
  /** Paths the target names, maybe hostile: bound only under NAMED_ROOTS, without sockets, FIFOs or devices. */
  named?: string[];
  writable: string[];
  /** Files and socket-free folders a target list ships beside it (shipped.ts), bound read-only even under a home. */
  shipped?: string[];
  /** Exist empty in the sandbox: a named directory under a home that the server checks for. */
  placeholders?: string[];
  cwd: string;
  /** Size bound of each tmpfs; unbounded when absent (a bwrap older than 0.7 has no `--size`). */
  tmpfsBytes?: number;
}

type Op = { p: string; kind: 'tmpfs' | 'dir' | 'ro' | 'rw' };
const ORDER: Record<Op['kind'], number> = { tmpfs: 0, dir: 1, ro: 2, rw: 3 };

export function bwrapArgs(plan: BwrapPlan): string[] {
  const roots = [...HIDDEN, ...(plan.homes ?? [])]
    .map((d) => safeRealpath(d))
    .filter((d): d is string => !!d && d !== '/');
  // A home inside another hidden root is hidden with it.
  const hidden = [...new Set(roots)].filter((d, _, all) => !all.some((o) => o !== d && within(d, o)));
  const home = plan.home && path.isAbsolute(plan.home) ? (safeRealpath(plan.home) ?? plan.home) : undefined;
  const homeInside = home !== undefined && hidden.some((h) => within(home, h));
  if (home && home !== '/' && !homeInside && existsSync(home)) hidden.push(home);
  const late = (plan.hide ?? []).map((d) => safeRealpath(d)).filter((d): d is string => !!d && d !== '/');
  const guarded = [...hidden, ...late];
  const homes = new Set([...['/home', '/root', ...(plan.homes ?? [])].map((d) => safeRealpath(d)), home]);
  const named = revealNamed(
    plan.named ?? [],
    guarded,
    [...homes].filter((h): h is string => !!h),
  );
  const args = [
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    // The namespace ends with idemscan (even on SIGKILL); no terminal to inject keystrokes into;
    // no capabilities even for root (bwrap itself sets no-new-privileges).
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
  ];
  // Parents before children, so that a later mount is never covered by an earlier one: a cache
  // dir inside a bound cwd is hidden after the cwd is bound, its own entry bound after that.
  const ops: Op[] = [
    ...[...hidden, ...late].map((p): Op => ({ p, kind: 'tmpfs' })),
    ...(home && homeInside ? [{ p: home, kind: 'dir' } as Op] : []),
    ...[...(plan.placeholders ?? []), ...named.empty]
      .map((p) => safeRealpath(p))
      .filter((p): p is string => !!p && guarded.some((h) => within(p, h)))
      .map((p): Op => ({ p, kind: 'dir' })),
    ...reveal(plan.readable, guarded, home, homes).map((p): Op => ({ p, kind: 'ro' })),
    ...named.bound.map((p): Op => ({ p, kind: 'ro' })),
    ...shippedBinds(plan.shipped ?? [], hidden, late, home).map((p): Op => ({ p, kind: 'ro' })),
    ...reveal(plan.writable, guarded, home, homes, true).map((p): Op => ({ p, kind: 'rw' })),
  ];
  const seen = new Set<string>();
  for (const op of ops.sort((a, b) => depth(a.p) - depth(b.p) || ORDER[a.kind] - ORDER[b.kind])) {
    if (seen.has(`${op.kind} ${op.p}`)) continue;
    seen.add(`${op.kind} ${op.p}`);
    if (op.kind === 'tmpfs')
      args.push(...(plan.tmpfsBytes ? ['--size', String(plan.tmpfsBytes)] : []), '--tmpfs', op.p);
    else if (op.kind === 'dir') args.push('--dir', op.p);
    else args.push(op.kind === 'ro' ? '--ro-bind' : '--bind', op.p, op.p);
  }
  args.push('--chdir', plan.cwd);
  return args;
}

/** Never a hidden root, HOME or its parent (that would undo the hiding); under a home only an installed package. */
function reveal(
  paths: string[],
  hidden: string[],
  home: string | undefined,
  homes: Set<string | undefined>,
  exact = false,
): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const real = safeRealpath(p);
    if (!real) continue;
    // The innermost: a cache entry under a hidden cache dir under /tmp belongs to the cache dir.
    const root = hidden.filter((h) => within(real, h)).sort((a, b) => b.length - a.length)[0];
    // Outside the hidden roots a path is already readable (`/` is bound read-only), but a writable
    // one (an install-scripts cache entry under --cache-dir /srv/...) must still be bound.
    if (!root && !exact) continue;
    const target = exact || !root ? real : (packageRoot(real, root, home, homes.has(root)) ?? real);
    if (hidden.includes(target) || target === '/' || (home !== undefined && within(home, target))) continue;
    out.add(target);
  }
  return [...out];
}

/** Never a hidden root, idemscan's cache, HOME or a parent of it, whatever shipped.ts accepted. */
function shippedBinds(paths: string[], hidden: string[], late: string[], home: string | undefined): string[] {
  return paths
    .map((p) => safeRealpath(p))
    .filter((p): p is string => !!p && p !== '/' && !hidden.includes(p))
    .filter((p) => !late.some((c) => within(p, c) || within(c, p)) && !(home !== undefined && within(home, p)));
}

/** Only under NAMED_ROOTS and free of sockets, FIFOs and devices: a read-only bind does not stop connect(). */
function revealNamed(paths: string[], hidden: string[], homes: string[]): { bound: string[]; empty: string[] } {
  const roots = NAMED_ROOTS.map((d) => safeRealpath(d));
  const bound = new Set<string>();
  const empty = new Set<string>();
  for (const p of paths) {
    const real = safeRealpath(p);
    // Outside the hidden roots a path is already readable (`/` is bound read-only): nothing to bind.
    const root = real && hidden.filter((h) => within(real, h)).sort((a, b) => b.length - a.length)[0];
    if (!real || !root || real === root) continue;
    const kind = kindOf(real);
    if (kind === 'other') continue;
    const refused = !roots.includes(root) || homes.some((h) => within(real, h) || within(h, real));
    if (kind === 'dir') (!refused && onlyFilesIn(real) ? bound : empty).add(real);
    else if (!refused) {
      const pkg = packageRoot(real, root, undefined, false);
      bound.add(pkg && !homes.some((h) => within(h, pkg)) && onlyFilesIn(pkg) ? pkg : real);
    }
  }
  return { bound: [...bound], empty: [...empty] };
}

function kindOf(p: string): 'file' | 'dir' | 'other' {
  try {
    const stat = statSync(p);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'other';
  }
}

/** Walks of the last seconds: every server of a scan names the same cwd (a checkout, ~80 ms each). */
const walked = new Map<string, { clean: boolean; at: number }>();
const WALK_MEMO_MS = 10_000;

/** Only files, directories and symlinks (resolved inside the sandbox), within WALK_LIMIT entries, all listable. */
export function onlyFilesIn(dir: string): boolean {
  const memo = walked.get(dir);
  if (memo && performance.now() - memo.at < WALK_MEMO_MS) return memo.clean;
  const clean = walk(dir);
  walked.set(dir, { clean, at: performance.now() });
  return clean;
}

function walk(dir: string): boolean {
  const stack = [dir];
  let seen = 0;
  while (stack.length > 0) {
    const current = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch (err) {
      // Gone since its parent was listed: nothing to bind. One that cannot be listed cannot be vouched for.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return false;
    }
    seen += entries.length;
    if (seen > WALK_LIMIT) return false;
    for (const entry of entries) {
      if (entry.isDirectory()) stack.push(path.join(current, entry.name));
      else if (!entry.isFile() && !entry.isSymbolicLink()) return false;
    }
  }
  return true;
}

/** The nearest directory above a file that has a package.json, below `root` and HOME. */
function packageRoot(file: string, root: string, home: string | undefined, installedOnly: boolean): string | undefined {
  if (!isFile(file)) return undefined;
  for (let dir = path.dirname(file); dir !== root && dir !== home && within(dir, root); dir = path.dirname(dir)) {
    if (!existsSync(path.join(dir, 'package.json'))) continue;
    const parent = path.dirname(dir);
    const installed =
      path.basename(parent) === 'node_modules' ||
      (path.basename(parent).startsWith('@') && path.basename(path.dirname(parent)) === 'node_modules');
    return !installedOnly || installed ? dir : undefined;
  }
  return undefined;
}

export function within(p: string, dir: string): boolean {
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
