/**
 * How a stdio server (or an install script) is wrapped before it is spawned. Three layers, each
 * used only where this machine allows it (see docs/SANDBOX.md for what each one protects):
 *
 * - `bubblewrap` (`--sandbox`, bwrap present): own PID, network, IPC and UTS namespaces, a
 *   read-only system, private scratch HOME and /tmp, no homes, no capabilities. bwrap's own init
 *   is PID 1 and `--die-with-parent` ends the namespace with idemscan.
 * - `netns` (`--sandbox`, no bwrap): util-linux `unshare`, a loopback-only network namespace plus
 *   the PID namespace below. Files are not protected.
 * - `none` (no `--sandbox`): the PID namespace only, so a child that calls setsid or double-forks
 *   still ends with the server. Where `unshare` cannot do that either, the bare command in its
 *   own process group (the connector signals the group).
 *
 * In every `unshare` variant a tiny `sh` is PID 1 and waits for the server: a server that were
 * PID 1 itself would ignore SIGTERM unless it handles it. When the server exits, so does sh, and
 * the kernel kills everything left in the namespace. `setpriv --pdeathsig KILL` ends the wrapper
 * (and so the namespace) when idemscan itself is killed.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { bwrapArgs, safeRealpath } from './bwrap.js';

export type SandboxMode = 'bubblewrap' | 'netns' | 'none';

export interface Launch {
  command: string;
  args: string[];
  cwd?: string;
}

export interface ContainOptions {
  /** Run inside the best sandbox this machine has (`--sandbox`, install scripts). */
  sandbox: boolean;
  /** Paths the process must read besides its command, path arguments and cwd (its npm cache entry). */
  readable?: string[];
  /** Paths it may write (install scripts: the package's cache entry). Bubblewrap only. */
  writable?: string[];
}

export interface Contained extends Launch {
  /** Which sandbox the process runs in; `none` may still have the PID namespace. */
  sandbox: SandboxMode;
}

/** Runs the server as a child and exits with its status (SIGTERM reaches the server through its
 * process group). stdin goes through fd 3: a background job of a non-interactive sh would get /dev/null. */
const INIT = 'exec 3<&0; "$@" <&3 3<&- & exec 3<&-; wait $!';
/** What sh itself adds to the environment, removed again so the server sees exactly what it was given. */
const SH_ENV = ['PWD', 'OLDPWD', 'SHLVL', '_'].flatMap((name) => ['-u', name]);
const LO_UP = 'ip link set lo up 2>/dev/null; ';

interface Abilities {
  bwrap: boolean;
  /** `unshare` flags for a PID namespace that keeps the real uid, or null. */
  pid: string[] | null;
  /** `unshare` flags for network + PID namespaces (as non-root this maps to uid 0), or null. */
  net: string[] | null;
  /** `setpriv --pdeathsig KILL` works. */
  pdeathsig: boolean;
}

const works = (command: string, args: string[]): boolean =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 }).status === 0;

const PID_NS = ['--pid', '--fork', '--kill-child'];
const NOOP = ['sh', '-c', ':'];
const firstWorking = (candidates: string[][]) => candidates.find((flags) => works('unshare', [...flags, ...NOOP])) ?? null;
const root = () => process.getuid?.() === 0;

/** How each ability is checked: a few milliseconds of an empty `sh` (which the wrappers need anyway) under it. */
const CHECKS: { [K in keyof Abilities]: () => Abilities[K] } = {
  bwrap: () => works('bwrap', [...bwrapArgs({ home: undefined, readable: [], writable: [], cwd: '/' }), ...NOOP]),
  // An unprivileged user namespace that maps our uid to itself: the server still sees its own uid.
  pid: () => firstWorking(root() ? [PID_NS] : [['--user', '--map-current-user', ...PID_NS]]),
  net: () => firstWorking(root() ? [['-n', ...PID_NS], ['-rn', ...PID_NS]] : [['-rn', ...PID_NS]]),
  pdeathsig: () => works('setpriv', ['--pdeathsig', 'KILL', '--', ...NOOP]),
};
const NONE: Abilities = { bwrap: false, pid: null, net: null, pdeathsig: false };
const known: Partial<Abilities> = {};

/** Each ability is probed once per process, and only when asked for: a scan without --sandbox never starts bwrap. */
function can<K extends keyof Abilities>(key: K): Abilities[K] {
  if (process.platform !== 'linux') return NONE[key];
  if (!(key in known)) known[key] = CHECKS[key]();
  return known[key] as Abilities[K];
}

/** What `--sandbox` gives on this machine. */
function sandboxMode(): SandboxMode {
  return can('bwrap') ? 'bubblewrap' : can('net') ? 'netns' : 'none';
}

const WEAKER: Record<SandboxMode, string | undefined> = {
  bubblewrap: undefined,
  netns: '--sandbox: bubblewrap (bwrap) is missing or cannot create namespaces here; servers get only a loopback-only network namespace (files and HOME are NOT protected, see docs/SANDBOX.md)',
  none: '--sandbox: neither bubblewrap nor `unshare -n` works on this machine; servers cannot be sandboxed',
};

/** What `--sandbox` gives on this machine, and the one line to say when that is less than bubblewrap. */
export function sandboxSupport(): { mode: SandboxMode; note?: string } {
  const mode = sandboxMode();
  const devNull = process.platform === 'linux' ? devNullNote() : undefined;
  return { mode, note: [WEAKER[mode], devNull].filter(Boolean).join('; ') || undefined };
}

/**
 * Every sandbox shares the machine's /dev/null (bwrap's `--dev` binds it). Where it is a regular
 * file, as on some container images, a sandboxed server reads what other processes threw away
 * there and writes what they read back (`perl -e` reads /dev/null as the rest of its program).
 */
export function devNullNote(file = '/dev/null'): string | undefined {
  let device: boolean;
  try {
    device = statSync(file).isCharacterDevice();
  } catch {
    device = false;
  }
  return device ? undefined : `--sandbox: ${file} on this machine is not the null device but a file that every process, sandboxed or not, reads and writes (as root: rm ${file} && mknod -m 666 ${file} c 1 3)`;
}

/** The wrapper program of the sandbox this machine has, or null when there is none (tests skip on it). */
export function sandboxPrefix(): string[] | null {
  const mode = sandboxMode();
  return mode === 'bubblewrap' ? ['bwrap'] : mode === 'netns' ? ['unshare', ...can('net')!] : null;
}

/**
 * The launch wrapped for containment. Throws (a spawn failure for the caller) where the
 * sandbox is asked for but impossible, or where a wrapper would hide that the command is missing.
 */
export function contain(launch: Launch, opts: ContainOptions): Contained {
  const mode = opts.sandbox ? sandboxMode() : 'none';
  if (opts.sandbox && mode === 'none') throw new Error('--sandbox needs bubblewrap (bwrap) or `unshare -n` (util-linux), and neither works on this machine');
  const flags = mode === 'netns' ? can('net') : can('pid');
  if (mode !== 'bubblewrap' && !flags) return { ...launch, sandbox: mode };
  // Inside a wrapper a missing command would look like a server that exited 127.
  const found = findExecutable(launch.command, launch.cwd);
  if (!found) throw new Error(`cannot start "${launch.command}": ENOENT`);
  let argv: string[];
  if (mode === 'bubblewrap') {
    const cwd = launch.cwd ?? process.cwd();
    // The paths a target names (its arguments, its cwd) come from a file that may be hostile.
    const named = [...argPaths(launch.args, cwd), ...(launch.cwd === undefined ? [] : [cwd])].filter((p) => !inDotEntryOfHome(p));
    const readable = [...commandPaths(found), ...named, ...(launch.cwd === undefined ? [cwd] : []), ...(opts.readable ?? [])];
    argv = ['bwrap', ...bwrapArgs({ home: process.env.HOME, readable, writable: opts.writable ?? [], cwd }), launch.command, ...launch.args];
  } else {
    const script = (mode === 'netns' ? LO_UP : '') + INIT;
    const lifetime = can('pdeathsig') ? ['setpriv', '--pdeathsig', 'KILL', '--'] : [];
    const env = findExecutable('env');
    argv = [...lifetime, 'unshare', ...flags!, '--', 'sh', '-c', script, 'sh', ...(env ? [env, ...SH_ENV] : []), launch.command, ...launch.args];
  }
  return { command: argv[0]!, args: argv.slice(1), cwd: launch.cwd, sandbox: mode };
}

/** The absolute path the command resolves to (PATH lookup as spawn does), or undefined. */
export function findExecutable(command: string, cwd?: string): string | undefined {
  const dirs = command.includes('/') ? [''] : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const file = path.resolve(cwd ?? process.cwd(), dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The command and what it needs to run when it lives in a hidden place (nvm under HOME): its
 * package (a JS bin), and the Node that runs idemscan with its prefix (global npm, npx). */
function commandPaths(found: string): string[] {
  const out = [found, process.execPath];
  const real = safeRealpath(found);
  if (real) out.push(real);
  const node = safeRealpath(process.execPath);
  if (node && path.basename(path.dirname(node)) === 'bin') out.push(path.dirname(path.dirname(node)));
  return out;
}

/**
 * Whether a path is in a dot entry of HOME (`~/.ssh`, `~/.aws`, `~/.npmrc`, `~/.config/gh`), where
 * credentials live. A target file cannot have one bound back into the sandbox by naming it as an
 * argument or cwd (`"${userHome}/.ssh/id_rsa"`); a server's own files are rarely there, and its
 * command (a Node under `~/.nvm`) and npm cache entry are bound back on idemscan's word, not the file's.
 */
function inDotEntryOfHome(p: string): boolean {
  const home = process.env.HOME && path.isAbsolute(process.env.HOME) ? safeRealpath(process.env.HOME) : undefined;
  const real = safeRealpath(p);
  if (!home || !real) return false;
  const parts = path.relative(home, real).split(path.sep);
  return parts[0] !== '..' && !path.isAbsolute(parts[0]!) && parts.some((part) => part.startsWith('.'));
}

/** Arguments that name existing paths (`/x`, `./x`, `--flag=/x`), resolved against cwd. */
function argPaths(args: string[], cwd: string): string[] {
  return args
    .map((arg) => (arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg))
    .filter((arg) => arg.length > 0 && arg.length < 4096 && !arg.includes('\0') && (path.isAbsolute(arg) || arg.startsWith('.') || arg.includes('/')))
    .map((arg) => path.resolve(cwd, arg));
}
