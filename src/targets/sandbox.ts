/**
 * `--sandbox`: a stdio server runs in a fresh network namespace that has only loopback, so it
 * cannot reach the internet (telemetry, its real API) whatever credentials it was given. It does
 * not restrict the file system or other processes. Uses util-linux `unshare`; as an ordinary user
 * it needs unprivileged user namespaces (`unshare -rn`).
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { execaSync } from 'execa';

let prefix: string[] | null | undefined;

/** The command prefix that works on this machine, or null where neither variant does. */
export function sandboxPrefix(): string[] | null {
  if (prefix !== undefined) return prefix;
  const lo = 'ip link set lo up 2>/dev/null; exec "$0" "$@"';
  for (const flags of process.getuid?.() === 0 ? [['-n'], ['-rn']] : [['-rn']]) {
    const probe = execaSync('unshare', [...flags, 'true'], { reject: false });
    if (probe.exitCode === 0) return (prefix = ['unshare', ...flags, '--', 'sh', '-c', lo]);
  }
  return (prefix = null);
}

export function sandboxed(command: string, args: string[]): { command: string; args: string[] } {
  const p = sandboxPrefix();
  if (!p) throw new Error('--sandbox needs `unshare -n` (util-linux) and network namespaces, which this machine does not allow');
  // Inside the wrapper a missing command would look like a server that exited 127.
  if (!findExecutable(command)) throw new Error(`cannot start "${command}": ENOENT`);
  return { command: p[0]!, args: [...p.slice(1), command, ...args] };
}

function findExecutable(command: string): boolean {
  const dirs = command.includes('/') ? [''] : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return dirs.some((dir) => {
    try {
      accessSync(dir ? path.join(dir, command) : command, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
