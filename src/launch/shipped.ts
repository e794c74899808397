/** Files a target list ships beside it (`${workspaceFolder}/fake/x.json`): shown to its server read-only (docs/SANDBOX.md). */
import path from 'node:path';
import { HIDDEN, onlyFilesIn, safeRealpath, within } from './bwrap.js';
import { homeDirs } from './homes.js';
import { argValue, looksLikePath } from './resolution.js';
import { isDirectory, isFile } from '../targets/file-kind.js';
import type { Target } from '../targets/types.js';

/**
 * The real paths, strictly inside the list's folder, that the entry's arguments, env values and cwd
 * name: regular files, or directories of only files and directories. Never the folder itself, a
 * dot-named entry (`.env`, `.git`, `.ssh`) or a folder that is a home or a hidden root, so a list
 * kept in HOME or /tmp shows nothing of what lies around it.
 */
export function shippedPaths(target: Target, home = process.env.HOME): string[] {
  if (target.kind !== 'command' && target.kind !== 'package') return [];
  const folder = target.listFolder === undefined ? undefined : safeRealpath(target.listFolder);
  if (!folder || !ownFolder(folder, home)) return [];
  const cwd = target.cwd ?? process.cwd();
  const named = [...(target.args ?? []).map(argValue), ...Object.values(target.env ?? {})];
  if (target.cwd !== undefined) named.push(target.cwd);
  const out = new Set<string>();
  for (const value of named.filter(looksLikePath)) {
    const real = safeRealpath(path.resolve(cwd, value));
    if (real && real !== folder && within(real, folder) && shippable(real, folder)) out.add(real);
  }
  return [...out];
}

/** A folder of its own: not a home, a hidden root, `/`, nor one that holds any of them. */
function ownFolder(folder: string, home: string | undefined): boolean {
  const roots = ['/', ...HIDDEN, ...homeDirs(home)].map((d) => safeRealpath(d) ?? path.resolve(d));
  return !roots.some((r) => within(r, folder));
}

function shippable(real: string, folder: string): boolean {
  if (
    path
      .relative(folder, real)
      .split(path.sep)
      .some((part) => part.startsWith('.'))
  )
    return false;
  return isFile(real) || (isDirectory(real) && onlyFilesIn(real));
}
