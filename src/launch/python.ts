/** The interpreter behind a venv, found by idemscan; under --sandbox only its prefix is bound, even in a home. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { readBoundedTextSync } from '../io/read.js';
import { within } from './bwrap.js';
import { homeDirs } from './homes.js';
import { boundedTail } from '../model/bounds.js';

export interface Interpreter {
  /** The real executable (not a pyenv shim, which is a shell script under a home). */
  executable: string;
  prefix: string;
}

let found: Interpreter | { error: string } | undefined;

/** `python3` on PATH, asked where it really is; once per process. */
export function findPython(): Interpreter | { error: string } {
  if (found) return found;
  const run = spawnSync('python3', ['-c', 'import sys, json; print(json.dumps([sys.executable, sys.base_prefix]))'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (run.error || run.status !== 0) {
    found = {
      error: `python3 does not run here (${run.error ? (run.error as NodeJS.ErrnoException).code : boundedTail(String(run.stderr).trim(), 200)}): PyPI servers need Python 3 with venv`,
    };
    return found;
  }
  try {
    const [executable, prefix] = JSON.parse(run.stdout) as [string, string];
    const checked = prefixProblem(prefix);
    found = checked
      ? { error: `python3's prefix ${prefix}: ${checked}` }
      : { executable, prefix: realpathSync(prefix) };
  } catch {
    found = { error: 'python3 did not say where it is installed' };
  }
  return found;
}

/** From `pyvenv.cfg`, which a server run without --sandbox can rewrite: prefixProblem checks before binding. */
export function venvPrefix(venv: string): string | { error: string } {
  let home: string | undefined;
  // A FIFO would block this synchronous read; a few lines of settings are far below the bound.
  const cfg = readBoundedTextSync(path.join(venv, 'pyvenv.cfg'), { maxBytes: 64 * 1024, noFollow: true });
  if ('error' in cfg) return { error: `${venv} has no pyvenv.cfg` };
  for (const line of cfg.text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && line.slice(0, eq).trim() === 'home') home = line.slice(eq + 1).trim();
  }
  if (!home || !path.isAbsolute(home)) return { error: `${venv}/pyvenv.cfg names no interpreter home` };
  let python: string;
  try {
    python = realpathSync(path.join(venv, 'bin', 'python'));
  } catch {
    return { error: `${venv}/bin/python is missing` };
  }
  const prefix = path.dirname(path.dirname(python));
  const realHome = existsSync(home) ? realpathSync(home) : home;
  if (realHome !== path.dirname(python))
    return { error: `${venv}: pyvenv.cfg's home ${home} is not where bin/python points (${python})` };
  const problem = prefixProblem(prefix);
  return problem ? { error: `${venv}: interpreter prefix ${prefix}: ${problem}` } : prefix;
}

/** Why `prefix` may not be bound as an interpreter: not a Python installation, or a home itself. */
export function prefixProblem(prefix: string, home = process.env.HOME): string | undefined {
  if (!path.isAbsolute(prefix) || prefix === '/') return 'not an absolute prefix';
  const real = existsSync(prefix) ? realpathSync(prefix) : prefix;
  const homes = homeDirs(home).map((h) => (existsSync(h) ? realpathSync(h) : h));
  if (homes.some((h) => within(h, real))) return 'a home directory or one above it, not an interpreter prefix';
  let libs: string[];
  try {
    libs = readdirSync(path.join(real, 'lib')).filter((d) => /^python3\.\d+$/.test(d));
  } catch {
    libs = [];
  }
  if (!libs.some((d) => existsSync(path.join(real, 'lib', d, 'os.py'))))
    return 'not a Python installation (no lib/python3.X/os.py)';
  return undefined;
}
