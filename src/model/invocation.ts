// How the user started idemscan, so the commands hints print are ones this user can type.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface InvocationPlaces {
  /** process.argv[1]. */
  main: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** A script using the library is not idemscan. */
  cli: string;
}

export function invocationOf({ main, env, cwd, cli }: InvocationPlaces): string {
  const self = main === undefined ? undefined : real(main);
  if (self === undefined || self !== real(cli)) return 'idemscan';
  if (onPath('idemscan', env.PATH) === self) {
    // npm exec and npx put the package's .bin first on PATH.
    return env.npm_command === 'exec' ? 'npx idemscan' : 'idemscan';
  }
  const rel = path.relative(cwd, main!);
  const shown = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(main!);
  return `node ${shellWord(shown)}`;
}

// .js when built, .ts under tsx.
const here = fileURLToPath(import.meta.url);
const CLI = path.join(path.dirname(here), '..', 'cli', `main${path.extname(here)}`);

let memo: string | undefined;

export function invocation(): string {
  memo ??= invocationOf({ main: process.argv[1], env: process.env, cwd: process.cwd(), cli: CLI });
  return memo;
}

export const idemscanCommand = (rest: string): string => `${invocation()} ${rest}`;

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

export function shellWord(word: string): string {
  let plain = word.length > 0;
  for (const c of word) if (!/[\w./:@%+=,-]/.test(c)) plain = false;
  return plain ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
