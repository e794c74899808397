/**
 * A stdio server's environment, and how it reaches the server without steering anything on the way.
 *
 * Between idemscan and the server stand programs that run outside the containment: `bwrap` (as
 * root here, before the sandbox exists), `setpriv`, `unshare`, the PID-1 `sh`, and a container
 * engine's CLI. A target file is untrusted: its `LD_PRELOAD`, `PATH` or `DOCKER_HOST` must reach
 * none of them. So every wrapper starts with idemscan's own minimal environment (`hostEnv()`), and
 * the server's variables travel through them under opaque names (`IDEMSCAN_ENV_N<i>` holds a
 * name, `IDEMSCAN_ENV_V<i>` its value), which no program reads; they become real only in the last
 * exec before the server, `env -i`, inside the containment. Values never go on a command line,
 * which every user of the machine can read in `ps`.
 */

/** Environment variables a stdio server inherits (the SDK's DEFAULT_INHERITED_ENV_VARS). */
const INHERITED_ENV_VARS =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'COMSPEC',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'PROGRAMDATA',
        'PROGRAMFILES',
        'PROGRAMFILES(X86)',
        'PROGRAMW6432',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'WINDIR',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/**
 * The SDK's getDefaultEnvironment() (copied so that a stdio scan never loads the SDK;
 * test/unit/options.test.ts compares them): those variables of idemscan's own environment, except
 * bash exported functions (`() {...`).
 */
export function getDefaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV_VARS) {
    const value = process.env[key];
    if (value === undefined || value.startsWith('()')) continue;
    env[key] = value;
  }
  return env;
}

/** What the server itself sees: the defaults, then what its target declares. */
export function serverEnv(declared: Record<string, string> = {}): Record<string, string> {
  return { ...getDefaultEnvironment(), ...declared };
}

const NAME = 'IDEMSCAN_ENV_N';
const VALUE = 'IDEMSCAN_ENV_V';

/** The server's variables under opaque names, added to a wrapper's own environment. */
export function carrierEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  Object.entries(env).forEach(([name, value], i) => {
    out[`${NAME}${i}`] = name;
    out[`${VALUE}${i}`] = value;
  });
  return out;
}

/**
 * The words of a `sh -c` script that turn `count` carried variables back into `env` arguments
 * (`"$IDEMSCAN_ENV_N0=$IDEMSCAN_ENV_V0" ...`). Only idemscan's own text goes into the script: names
 * and values are expanded from the environment, never spliced in.
 */
export function carriedAssignments(count: number): string {
  return Array.from({ length: count }, (_, i) => `"$${NAME}${i}=$${VALUE}${i}"`).join(' ');
}
