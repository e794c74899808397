/**
 * `--writable PATH` (docs/SANDBOX.md): what the user binds read-write into the sandbox, checked
 * before anything starts, and the paths a server is given (its arguments, its env values) that the
 * sandbox would not show. A test backend the sandbox hides is an error naming it, not a stand-in
 * store the server quietly creates in its private /tmp.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { HIDDEN, NAMED_ROOTS, onlyFilesIn, safeRealpath, within } from './bwrap.js';
import { homeDirs } from './homes.js';
import { argPaths, argValue, looksLikePath, resolutionPaths } from './resolution.js';
import { cacheDirs } from './npm.js';

/** Why `dir` cannot be bound read-write (binding it would undo the hiding), or undefined. */
export function writableProblem(dir: string, cacheDir: string, home = process.env.HOME): string | undefined {
  const real = safeRealpath(dir);
  if (!real) return 'does not exist';
  if (real === '/') return 'is the root directory: binding it read-write would undo the whole sandbox';
  const realHome = home && path.isAbsolute(home) ? (safeRealpath(home) ?? path.resolve(home)) : undefined;
  if (realHome && within(realHome, real))
    return real === realHome
      ? 'is HOME, which the sandbox hides (give a directory inside it)'
      : 'holds HOME, which the sandbox hides (give a directory inside it)';
  const roots = [...HIDDEN, ...homeDirs(undefined)].map((d) => safeRealpath(d) ?? d);
  const root = roots.find((r) => r === real || within(r, real));
  if (root) return `${root === real ? 'is' : 'holds'} ${root}, which the sandbox hides (give a directory inside it)`;
  const cache = cacheDirs(cacheDir)
    .map((d) => safeRealpath(d) ?? d)
    .find((c) => within(real, c) || within(c, real));
  if (cache) return `is or holds idemscan's cache (${cache}: other packages, OAuth tokens), which the sandbox hides`;
  // Under a hidden root, a socket would be reachable again (ssh-agent under /tmp): as for named paths.
  const hidden = roots.some((r) => within(real, r));
  if (hidden && statSync(real).isDirectory() && !onlyFilesIn(real))
    return 'holds a Unix socket, FIFO or device (or more than 100,000 entries), which the sandbox keeps hidden under /tmp and the homes';
  if (hidden && !statSync(real).isDirectory() && !statSync(real).isFile())
    return 'is not a regular file or directory (a socket, FIFO or device stays hidden)';
  return undefined;
}

/** A path a server is given, and where: `argument 2`, `env MEMORY_FILE_PATH`. */
export interface GivenPath {
  path: string;
  via: string;
}

/**
 * What a server is given that names an existing file or directory the sandbox will not show: under
 * a home, HOME, another hidden root or the cache, and not inside a `--writable` directory. An
 * argument under /tmp or /var/tmp is bound back read-only (docs/SANDBOX.md), so only an env value
 * is unbound there.
 */
export function unboundPaths(
  given: { args: string[]; env: Record<string, string>; cwd?: string },
  writable: string[],
  cacheDir: string,
  home = process.env.HOME,
): GivenPath[] {
  const cwd = given.cwd ?? process.cwd();
  const named = [
    ...given.args.map((arg, i) => ({ value: argValue(arg), via: `argument ${i + 1}` })),
    ...Object.entries(given.env).map(([name, value]) => ({ value, via: `env ${name}`, env: true })),
  ];
  const hidden = [...HIDDEN, ...homeDirs(home), ...cacheDirs(cacheDir)].map((d) => safeRealpath(d) ?? path.resolve(d));
  // A script installed in a node_modules under a home is shown with the node_modules above it (resolution.ts).
  const resolved = resolutionPaths(argPaths(given.args, cwd), hidden, home);
  const bound = [...writable.map((w) => safeRealpath(w) ?? path.resolve(w)), ...resolved];
  const shown = NAMED_ROOTS.map((d) => safeRealpath(d) ?? d);
  const out: GivenPath[] = [];
  for (const n of named) {
    if (!looksLikePath(n.value)) continue;
    const abs = path.resolve(cwd, n.value);
    const real = existsSync(abs) ? safeRealpath(abs) : undefined;
    if (!real || bound.some((b) => within(real, b))) continue;
    const roots = hidden.filter((h) => within(real, h)).sort((a, b) => b.length - a.length);
    if (roots.length === 0) continue;
    const readOnly = !('env' in n) && shown.includes(roots[0]!) && roots.length === 1;
    if (!readOnly) out.push({ path: abs, via: n.via });
  }
  return out;
}
