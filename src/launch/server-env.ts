/** Wrappers get idemscan's minimal environment: a target's `LD_PRELOAD` or `PATH` must steer none of them. */
// The server's variables travel as IDEMSCAN_ENV_N<i>/V<i> to a last `env -i`; never on a command line (`ps`).

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

/** The SDK's getDefaultEnvironment(), copied (docs/INTERNALS.md); bash exported functions are skipped. */
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

export function carrierEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  Object.entries(env).forEach(([name, value], i) => {
    out[`${NAME}${i}`] = name;
    out[`${VALUE}${i}`] = value;
  });
  return out;
}

/** Only idemscan's own text goes into the script: names and values are expanded from the environment. */
export function carriedAssignments(count: number): string {
  return Array.from({ length: count }, (_, i) => `"$${NAME}${i}=$${VALUE}${i}"`).join(' ');
}
