/** Runs the built CLI (dist/) as a user would. `npm test` builds first. */
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export function idemscan(args: string[], opts: { env?: Record<string, string | undefined>; cwd?: string } = {}) {
  return execa(process.execPath, [CLI, ...args], { reject: false, env: opts.env, cwd: opts.cwd, timeout: 60_000 });
}
