/**
 * How the user started idemscan, for the commands hints print: `npx idemscan` through npm exec or
 * npx, `idemscan` when that name on PATH is this very program, else `node <path to main.js>` (a
 * clone, where `idemscan` alone is not found). One function decides; every hint that prints a
 * command asks it (`idemscanCommand`).
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface InvocationPlaces {
  /** The program node runs: process.argv[1]. */
  main: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** idemscan's own cli/main file: another program (a script using the library) is not idemscan. */
  cli: string;
}

export function invocationOf({ main, env, cwd, cli }: InvocationPlaces): string {
  const self = main === undefined ? undefined : real(main);
  // Not idemscan's CLI (the library in a program of its own, a REPL): the name the docs use.
  if (self === undefined || self !== real(cli)) return 'idemscan';
  if (onPath('idemscan', env.PATH) === self) {
    // npm exec and npx put the package's .bin first on PATH and say so in npm_command.
    return env.npm_command === 'exec' ? 'npx idemscan' : 'idemscan';
  }
  const rel = path.relative(cwd, main!);
  const shown = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(main!);
  return `node ${shellWord(shown)}`;
}

// cli/main beside this module's folder, .js when built, .ts under tsx.
const here = fileURLToPath(import.meta.url);
const CLI = path.join(path.dirname(here), '..', 'cli', `main${path.extname(here)}`);

let memo: string | undefined;

/** This process's invocation, found once. */
export function invocation(): string {
  memo ??= invocationOf({ main: process.argv[1], env: process.env, cwd: process.cwd(), cli: CLI });
  return memo;
}

/** `idemscan report output/report.json`, as this user would type it: `rest` after the invocation. */
export const idemscanCommand = (rest: string): string => `${invocation()} ${rest}`;

/** The first `name` on PATH, resolved; what a shell would run for it. */
function onPath(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (existsSync(file)) return real(file);
  }
  return undefined;
}

function real(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** A word as a POSIX shell reads it back: plain when it is, else single-quoted. */
export function shellWord(word: string): string {
  let plain = word.length > 0;
  for (const c of word) if (!/[\w./:@%+=,-]/.test(c)) plain = false;
  return plain ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
