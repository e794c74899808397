/** How a stdio server (or an install script) is contained: the modes and what each protects, docs/SANDBOX.md. */
// In every `unshare` variant a tiny `sh` is PID 1: a server as PID 1 would ignore a SIGTERM it does not handle.
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bwrapArgs, HIDDEN, safeRealpath, SCRATCH_BYTES, within, type BwrapPlan } from './bwrap.js';
import { isDirectory } from '../targets/file-kind.js';
import { findExecutable, hostProgram } from './executables.js';
import { homeDirs } from './homes.js';
import { argPaths, resolutionPaths } from './resolution.js';
import { carriedAssignments, carrierEnv, getDefaultEnvironment, serverEnv } from './server-env.js';

export type SandboxMode = 'bubblewrap' | 'netns' | 'none' | 'none-host-proc';

export interface Spawn {
  command: string;
  args: string[];
  cwd?: string;
  /** What the target declares: the server sees the defaults plus these (server-env.ts). */
  env?: Record<string, string>;
}

export interface ContainOptions {
  /** Run inside the best sandbox this machine has (`--sandbox`, install scripts). */
  sandbox: boolean;
  /** Paths it must read besides its command, args and cwd (its npm cache entry), bound back on idemscan's word. */
  readable?: string[];
  /** Hidden wherever they are (idemscan's cache dirs), but what `readable`/`writable` bind back. Bubblewrap only. */
  hidden?: string[];
  /** Paths it may write (install scripts: the package's cache entry). Bubblewrap only. */
  writable?: string[];
  /** What its target list ships beside it (shipped.ts): bound read-only. Bubblewrap only. */
  shipped?: string[];
}

export interface Contained {
  command: string;
  args: string[];
  cwd?: string;
  /** The wrappers' minimal environment with the server's variables carried (server-env.ts), or the server's own. */
  env: Record<string, string>;
  /** Which sandbox the process runs in; `none` may still have the PID namespace. */
  sandbox: SandboxMode;
}

/** The last step inside the containment: `$e` is `env`, whose `-i` also drops what sh adds (PWD, SHLVL, _). */
const carried = (count: number) => `"$e" -i -- ${carriedAssignments(count)} "$@"`;
/** Inside bubblewrap: sh becomes env, env becomes the server, as if bwrap had started it. */
const execCarried = (count: number) => `e=$1; shift; exec ${carried(count)}`;
/** The server as a child; stdin goes through fd 3: a non-interactive sh gives a background job /dev/null. */
const init = (count: number) => `e=$1; shift; exec 3<&0; ${carried(count)} <&3 3<&- & exec 3<&-; wait $!`;
const LO_UP = 'ip link set lo up 2>/dev/null; ';

interface Abilities {
  bwrap: boolean;
  /** bwrap takes `--size` (0.7 and later). */
  bwrapSize: boolean;
  /** `unshare` flags for a PID namespace that keeps the real uid (with its own /proc where that works), or null. */
  pid: string[] | null;
  /** `unshare` flags for network + PID namespaces (as non-root this maps to uid 0), or null. */
  net: string[] | null;
  pdeathsig: boolean;
}

const works = (command: string, args: string[]): boolean =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 }).status === 0;

const PID_NS = ['--pid', '--fork', '--kill-child'];
/** A /proc of the PID namespace's own, in a mount namespace of its own (private propagation). */
const OWN_PROC = ['--mount', '--mount-proc'];
const withProc = (flags: string[]) => [[...flags, ...OWN_PROC], flags];
const NOOP = ['sh', '-c', ':'];
const firstWorking = (candidates: string[][]) =>
  candidates.find((flags) => works('unshare', [...flags, ...NOOP])) ?? null;
const root = () => process.getuid?.() === 0;

/** A few milliseconds of an empty `sh` (which the wrappers need anyway) under each. */
const CHECKS: { [K in keyof Abilities]: () => Abilities[K] } = {
  bwrap: () => works('bwrap', [...bwrapArgs({ home: undefined, readable: [], writable: [], cwd: '/' }), ...NOOP]),
  bwrapSize: () =>
    works('bwrap', [
      ...bwrapArgs({ home: undefined, readable: [], writable: [], cwd: '/', tmpfsBytes: SCRATCH_BYTES }),
      ...NOOP,
    ]),
  // An unprivileged user namespace that maps our uid to itself: the server still sees its own uid.
  pid: () => firstWorking(root() ? withProc(PID_NS) : withProc(['--user', '--map-current-user', ...PID_NS])),
  net: () =>
    firstWorking(
      root() ? [...withProc(['-n', ...PID_NS]), ...withProc(['-rn', ...PID_NS])] : withProc(['-rn', ...PID_NS]),
    ),
  pdeathsig: () => works('setpriv', ['--pdeathsig', 'KILL', '--', ...NOOP]),
};
const NONE: Abilities = { bwrap: false, bwrapSize: false, pid: null, net: null, pdeathsig: false };
const known: Partial<Abilities> = {};

/** Each ability is probed once per process, and only when asked for: a scan without --sandbox never starts bwrap. */
function can<K extends keyof Abilities>(key: K): Abilities[K] {
  if (process.platform !== 'linux') return NONE[key];
  if (!(key in known)) known[key] = CHECKS[key]();
  return known[key] as Abilities[K];
}

function sandboxMode(): SandboxMode {
  return can('bwrap') ? 'bubblewrap' : can('net') ? 'netns' : 'none';
}

const WEAKER: Record<SandboxMode, string | undefined> = {
  bubblewrap: undefined,
  netns:
    '--sandbox: bubblewrap (bwrap) is missing or cannot create namespaces here; servers get only a loopback-only network namespace (files and HOME are NOT protected, see docs/SANDBOX.md)',
  none: '--sandbox: neither bubblewrap nor `unshare -n` works on this machine; servers cannot be sandboxed',
  'none-host-proc': undefined,
};

/** What `--sandbox` gives on this machine, and the one line to say when that is less than bubblewrap. */
export function sandboxSupport(): { mode: SandboxMode; note?: string } {
  const mode = sandboxMode();
  const devNull = process.platform === 'linux' ? devNullNote() : undefined;
  const unbounded =
    mode === 'bubblewrap' && !can('bwrapSize')
      ? '--sandbox: this bwrap has no --size (bubblewrap older than 0.7): the scratch tmpfs of each server is not size-bounded'
      : undefined;
  return { mode, note: [WEAKER[mode], unbounded, devNull].filter(Boolean).join('; ') || undefined };
}

/** What a server gets without `--sandbox`, and the one line to say where it sees the host's processes (Linux). */
export function defaultSupport(): { mode: SandboxMode; note?: string } {
  if (ownProc(can('pid'))) return { mode: 'none' };
  const note =
    process.platform === 'linux'
      ? "servers see this machine's processes and can read the /proc/<pid>/environ of yours, idemscan's included (`unshare --pid --mount-proc` does not work here; docs/SANDBOX.md)"
      : undefined;
  return { mode: 'none-host-proc', note };
}

const ownProc = (flags: string[] | null) => !!flags?.includes('--mount-proc');

/** Where /dev/null is a regular file, sandboxed servers share what others wrote there (bwrap's `--dev` binds it). */
export function devNullNote(file = '/dev/null'): string | undefined {
  let device: boolean;
  try {
    device = statSync(file).isCharacterDevice();
  } catch {
    device = false;
  }
  return device
    ? undefined
    : `--sandbox: ${file} on this machine is not the null device but a file that every process, sandboxed or not, reads and writes (as root: rm ${file} && mknod -m 666 ${file} c 1 3)`;
}

/** The wrapper program of the sandbox this machine has, or null when there is none (tests skip on it). */
export function sandboxPrefix(): string[] | null {
  const mode = sandboxMode();
  return mode === 'bubblewrap' ? ['bwrap'] : mode === 'netns' ? ['unshare', ...can('net')!] : null;
}

/** Throws where the sandbox is asked for but impossible, or where a wrapper would hide a missing command. */
export function contain(launch: Spawn, opts: ContainOptions): Contained {
  const sandboxed = opts.sandbox ? sandboxMode() : 'none';
  if (opts.sandbox && sandboxed === 'none')
    throw new Error(
      '--sandbox needs bubblewrap (bwrap) or `unshare -n` (util-linux), and neither works on this machine',
    );
  const flags = sandboxed === 'netns' ? can('net') : can('pid');
  const mode = sandboxed === 'none' && !ownProc(flags) ? 'none-host-proc' : sandboxed;
  const env = serverEnv(launch.env);
  // Nothing wraps it: the process spawned is the server itself.
  if (mode !== 'bubblewrap' && !flags)
    return { command: launch.command, args: launch.args, cwd: launch.cwd, env, sandbox: mode };
  // Inside a wrapper a missing command would look like a server that exited 127.
  const found = findExecutable(launch.command, launch.cwd);
  if (!found) throw new Error(`cannot start "${launch.command}": ENOENT`);
  const sh = hostProgram('sh');
  const envProgram = hostProgram('env');
  if (!sh || !envProgram) throw new Error('containment needs sh and env on PATH');
  const count = Object.keys(env).length;
  // env reads a first word with `=` as an assignment (`./a=b` would print the environment and exit
  // 0), and has no escape for it: such a command is started by a second sh, which adds only PWD.
  const viaSh = launch.command.includes('=') ? [sh, '-c', 'unset PWD; exec "$0" "$@"'] : [];
  const server = [envProgram, ...viaSh, launch.command, ...launch.args];
  let argv: string[];
  if (mode === 'bubblewrap') {
    const plan = bubblewrapPlan(launch, [found, sh, envProgram], opts);
    argv = [hostProgram('bwrap') ?? 'bwrap', ...bwrapArgs(plan), '--', sh, '-c', execCarried(count), 'sh', ...server];
  } else {
    const script = (mode === 'netns' ? LO_UP : '') + init(count);
    const setpriv = hostProgram('setpriv');
    const lifetime = can('pdeathsig') && setpriv ? [setpriv, '--pdeathsig', 'KILL', '--'] : [];
    argv = [...lifetime, hostProgram('unshare') ?? 'unshare', ...flags!, '--', sh, '-c', script, 'sh', ...server];
  }
  // The wrappers run outside the containment: idemscan's own minimal environment, the server's carried.
  return {
    command: argv[0]!,
    args: argv.slice(1),
    cwd: launch.cwd,
    env: { ...getDefaultEnvironment(), ...carrierEnv(env) },
    sandbox: mode,
  };
}

/** In a hidden place (nvm under HOME) the command needs its package and the Node running idemscan. */
function commandPaths(found: string): string[] {
  const out = [found, process.execPath];
  const real = safeRealpath(found);
  if (real) out.push(real);
  const node = safeRealpath(process.execPath);
  if (node && path.basename(path.dirname(node)) === 'bin') out.push(path.dirname(path.dirname(node)));
  return out;
}

/** Target-named paths may be hostile: bound only as bwrapArgs allows (docs/SANDBOX.md); a refused dir exists empty. */
function bubblewrapPlan(launch: Spawn, programs: [string, ...string[]], opts: ContainOptions): BwrapPlan {
  const home = process.env.HOME;
  const cwd = launch.cwd ?? process.cwd();
  const hide = (opts.hidden ?? []).map((d) => path.resolve(d));
  const homes = homeDirs(home);
  const realOf = (p: string) => safeRealpath(p) ?? path.resolve(p);
  const guarded = [...homes, ...hide].map(realOf);
  const own = [...(opts.readable ?? []), ...(opts.writable ?? [])].map(realOf);
  const isGuarded = (p: string) => guarded.some((g) => within(realOf(p), g)) && !own.some((o) => within(realOf(p), o));
  // A cache dir that is not there yet cannot be hidden; one created during the scan could be read.
  for (const dir of hide) if (!safeRealpath(dir) && !homes.some((h) => within(dir, h))) tryMkdir(dir);
  // What the server's own entry holds is bound with the entry.
  const given = argPaths(launch.args, cwd);
  const named = [...given, cwd].filter((p) => !own.some((o) => within(realOf(p), o)));
  // A script installed by path (`npm install --prefix DIR`) resolves its imports in the node_modules above it.
  const resolution = resolutionPaths([programs[0], ...given], [...homes, ...HIDDEN, ...hide].map(realOf), home);
  const hiddenCache = (p: string) =>
    hide.map(realOf).some((d) => within(realOf(p), d)) && !own.some((o) => within(realOf(p), o));
  return {
    home,
    homes: homes.filter((h) => h !== '/home' && h !== '/root' && h !== home),
    hide,
    readable: [...new Set([...programs.flatMap(commandPaths), ...resolution])]
      .filter((p) => !hiddenCache(p))
      .concat(opts.readable ?? []),
    named: named.filter((p) => !isGuarded(p)),
    writable: opts.writable ?? [],
    shipped: opts.shipped,
    placeholders: named.filter((p) => isGuarded(p) && isDirectory(p)),
    cwd,
    tmpfsBytes: can('bwrapSize') ? SCRATCH_BYTES : undefined,
  };
}

function tryMkdir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // Not ours to create: nothing is in it to hide.
  }
}
