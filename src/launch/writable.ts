/** `--writable PATH` (docs/SANDBOX.md), and given paths the sandbox would hide: an error, not a silent stand-in. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { HIDDEN, NAMED_ROOTS, onlyFilesIn, safeRealpath, within } from './bwrap.js';
import { homeDirs } from './homes.js';
import { argPaths, argValue, looksLikePath, resolutionPaths } from './resolution.js';
import { cacheDirs } from './npm.js';
import { shippedPaths } from './shipped.js';
import { isDirectory } from '../targets/file-kind.js';
import type { Target } from '../targets/types.js';

/** Why `dir` cannot be bound read-write (binding it would undo the hiding), or undefined. */
function writableProblem(dir: string, cacheDir: string, home = process.env.HOME): string | undefined {
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

export interface WritableRefusal {
  /** The directory refused; absent when the refusal is that there is no sandbox. */
  dir?: string;
  problem: string;
}

export function writableRefusal(
  writable: readonly string[] | undefined,
  sandbox: boolean | undefined,
  cacheDir: string,
): WritableRefusal | undefined {
  if (!writable?.length) return undefined;
  if (!sandbox) return { problem: 'binds a directory inside the sandbox, so it needs the sandbox too' };
  for (const dir of writable) {
    const problem = writableProblem(dir, cacheDir);
    if (problem) return { dir, problem };
  }
  return undefined;
}

/** The real paths of directories `writableRefusal` accepted, each once. */
export const realWritable = (writable: readonly string[]): string[] => [
  ...new Set(writable.map((dir) => safeRealpath(dir) ?? path.resolve(dir))),
];

/** A path a server is given, and where: `argument 2`, `env MEMORY_FILE_PATH`, `cwd`. */
export interface GivenPath {
  path: string;
  via: string;
  field: string;
  /** It does not exist yet: the server would create it where the sandbox hides it. */
  missing?: boolean;
}

/** Why a GivenPath is refused, in words any caller's message can end with. */
export const hiddenWhy = (u: GivenPath): string =>
  u.missing
    ? 'which does not exist yet, in a directory the sandbox hides (the server would create it in its private scratch space, where nothing is kept)'
    : 'which the sandbox hides (the server would see nothing there, or make a new file in its private scratch space)';

/** What the sandbox would hide of a stdio target's arguments, env values and cwd, its list's files aside. */
export function unboundOf(target: Target, writable: readonly string[], sandbox: boolean | undefined, cacheDir: string) {
  if (!sandbox || (target.kind !== 'command' && target.kind !== 'package')) return [];
  const bound = [...writable, ...shippedPaths(target)];
  return unboundPaths({ args: target.args ?? [], env: target.env ?? {}, cwd: target.cwd }, bound, cacheDir);
}

function namedPaths(given: { args: string[]; env: Record<string, string>; cwd?: string }) {
  return [
    ...given.args.map((arg, i) => ({
      value: argValue(arg),
      via: `argument ${i + 1}`,
      field: `args[${i}]`,
      env: false,
    })),
    ...Object.entries(given.env).map(([name, value]) => ({
      value,
      via: `env ${name}`,
      field: `env.${name}`,
      env: true,
    })),
    ...(given.cwd === undefined ? [] : [{ value: given.cwd, via: 'cwd', field: 'cwd', env: false }]),
  ].filter((n) => looksLikePath(n.value));
}

/** A missing absolute path with an existing parent (a store the server will create) stands for that parent. */
function realOfNamed(abs: string, value: string): { real: string; missing?: boolean } | undefined {
  if (existsSync(abs)) {
    const real = safeRealpath(abs);
    return real ? { real } : undefined;
  }
  if (!path.isAbsolute(value)) return undefined;
  const parent = safeRealpath(path.dirname(abs));
  return parent && isDirectory(parent) ? { real: path.join(parent, path.basename(abs)), missing: true } : undefined;
}

/** Given paths the sandbox will not show; existing args or cwd under /tmp and /var/tmp are bound back. */
export function unboundPaths(
  given: { args: string[]; env: Record<string, string>; cwd?: string },
  writable: string[],
  cacheDir: string,
  home = process.env.HOME,
): GivenPath[] {
  const cwd = given.cwd ?? process.cwd();
  const hidden = [...HIDDEN, ...homeDirs(home), ...cacheDirs(cacheDir)].map((d) => safeRealpath(d) ?? path.resolve(d));
  // A script installed in a node_modules under a home is shown with the node_modules above it (resolution.ts).
  const resolved = resolutionPaths(argPaths(given.args, cwd), hidden, home);
  const bound = [...writable.map((w) => safeRealpath(w) ?? path.resolve(w)), ...resolved];
  const shown = NAMED_ROOTS.map((d) => safeRealpath(d) ?? d);
  const out: GivenPath[] = [];
  for (const n of namedPaths(given)) {
    const abs = n.field === 'cwd' ? path.resolve(n.value) : path.resolve(cwd, n.value);
    const found = realOfNamed(abs, n.value);
    if (!found || bound.some((b) => within(found.real, b))) continue;
    const roots = hidden.filter((h) => within(found.real, h)).sort((a, b) => b.length - a.length);
    if (roots.length === 0) continue;
    const readOnly = !n.env && !found.missing && shown.includes(roots[0]!) && roots.length === 1;
    if (!readOnly) out.push({ path: abs, via: n.via, field: n.field, ...(found.missing ? { missing: true } : {}) });
  }
  return out;
}
