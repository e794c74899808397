/** What a server run by path needs to resolve its imports under --sandbox (docs/SANDBOX.md), read-only. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { onlyFilesIn, safeRealpath, within } from './bwrap.js';
import { prefixProblem, venvPrefix } from './python.js';
import { isFile } from '../targets/file-kind.js';

/** What an argument names: `--flag=/x` names `/x`, any other argument itself. */
export const argValue = (arg: string): string =>
  arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;

/** Arguments that name paths (`/x`, `./x`, `--flag=/x`), resolved against cwd. */
export function argPaths(args: string[], cwd: string): string[] {
  return args
    .map(argValue)
    .filter(looksLikePath)
    .map((arg) => path.resolve(cwd, arg));
}

export function looksLikePath(value: string): boolean {
  return (
    value.length > 0 &&
    value.length < 4096 &&
    !value.includes('\0') &&
    (path.isAbsolute(value) || value.startsWith('.') || value.includes('/'))
  );
}

/** Each `node_modules` above an installed file up to its hidden root, socket-free; for a venv program, its parts. */
export function resolutionPaths(files: string[], hidden: string[], home: string | undefined): string[] {
  const out = new Set<string>();
  for (const file of files) {
    const real = safeRealpath(file);
    if (!real || !isFile(real)) continue;
    const root = hidden.filter((h) => within(real, h)).sort((a, b) => b.length - a.length)[0];
    if (root) for (const dir of nodeModulesAbove(real, root)) out.add(dir);
    for (const p of venvParts(path.resolve(file), hidden, home)) out.add(p);
  }
  return [...out];
}

function nodeModulesAbove(file: string, root: string): string[] {
  if (!file.split('/').includes('node_modules')) return [];
  const out: string[] = [];
  for (let dir = path.dirname(file); dir !== root && within(dir, root); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules');
    const real = existsSync(candidate) ? safeRealpath(candidate) : undefined;
    // A link named node_modules that points at anything else (`~/.ssh`) brings nothing.
    if (!real || path.basename(real) !== 'node_modules' || !within(real, root) || real === root) continue;
    if (statSync(real).isDirectory() && onlyFilesIn(real)) out.push(real);
  }
  return out;
}

/** A venv's `bin/python` or `bin/script` (as typed, before links): what it reads to start, under a hidden root. */
function venvParts(command: string, hidden: string[], home: string | undefined): string[] {
  const venv = path.dirname(path.dirname(command));
  if (path.basename(path.dirname(command)) !== 'bin' || !existsSync(path.join(venv, 'pyvenv.cfg'))) return [];
  const real = safeRealpath(venv);
  if (!real || !hidden.some((h) => within(real, h) && real !== h) || (home && within(home, real))) return [];
  const prefix = venvPrefix(real);
  const interpreter = typeof prefix === 'string' && !prefixProblem(prefix, home) ? [prefix] : [];
  const parts = [path.join(real, 'pyvenv.cfg'), path.join(real, 'bin'), ...sitePackages(real)];
  return [...parts.filter((p) => existsSync(p) && (isFile(p) || onlyFilesIn(p))), ...interpreter];
}

/** `lib/python3.X/site-packages` (and lib64's, when it is a directory of its own). */
function sitePackages(venv: string): string[] {
  return ['lib', 'lib64'].flatMap((lib) => {
    const dir = path.join(venv, lib);
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.startsWith('python'));
    } catch {
      return [];
    }
    return names.map((n) => path.join(dir, n, 'site-packages')).filter((p) => existsSync(p));
  });
}
