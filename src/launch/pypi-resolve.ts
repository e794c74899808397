/** An unpinned `uvx` entry gets pip's pick from its index, as an unpinned npx entry gets npm's. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { boundedTail } from '../model/bounds.js';
import { parsePypiSpec } from '../model/package-spec.js';
import type { Target } from '../targets/types.js';
import { DEFAULT_INDEX } from './pypi.js';
import { findPython } from './python.js';

/** pip reads one index page per name: far below this unless the index is stuck. */
const RESOLVE_TIMEOUT_MS = 60_000;

export interface PypiResolution {
  /** Index and bare name as configured (`keyOf`) -> `name==version`. */
  resolved: Map<string, string>;
  /** By the spec the package is reported under (pypi.ts: `pypi:NAME` for one not pinned). */
  errors: Map<string, string>;
}

const keyOf = (p: { spec: string; index?: string }) => `${p.index ?? DEFAULT_INDEX} ${p.spec}`;

const unpinnedPypi = (t: Target) =>
  t.kind === 'package' && t.package.type === 'pypi' && t.launcher?.resolved === true ? [t.package] : [];

/** Offline (`--no-install`) an unpinned entry is an error: which version runs is the index's to say. */
export async function resolvePypiUnpinned(
  targets: Target[],
  online: boolean,
  cacheDir: string,
  signal?: AbortSignal,
): Promise<PypiResolution> {
  const out: PypiResolution = { resolved: new Map(), errors: new Map() };
  const wanted = new Map(targets.flatMap(unpinnedPypi).map((p) => [keyOf(p), p]));
  for (const [key, { spec: name, index }] of wanted) {
    const got = online ? await newestVersion(name, index ?? DEFAULT_INDEX, cacheDir, signal) : offline(name);
    if ('version' in got) out.resolved.set(key, `${name}==${got.version}`);
    else out.errors.set(`pypi:${name}`, got.error);
  }
  return out;
}

export function withPypiResolved(targets: Target[], resolution: PypiResolution): Target[] {
  return targets.map((t) => {
    const [unpinned] = unpinnedPypi(t);
    const exact = unpinned && resolution.resolved.get(keyOf(unpinned));
    return exact && t.kind === 'package' ? { ...t, package: { ...t.package, spec: exact } } : t;
  });
}

const offline = (name: string) => ({
  error: `not pinned: which version of ${name} runs is its index's to say, and --no-install asks no index (scan without it, or pin "${name}==VERSION" in the entry)`,
});

/** `pip index versions`: pip's own reading of the index, in a venv of the cache's (pip is in every venv). */
async function newestVersion(name: string, index: string, cacheDir: string, signal?: AbortSignal) {
  const pip = await resolverPip(cacheDir, signal);
  if ('error' in pip) return pip;
  const { execa } = await import('execa');
  // `pip index` lists sdist-only versions too: such a pick then fails its install, wheels-only, saying so.
  const args = ['-m', 'pip', 'index', 'versions', name, '--index-url', index];
  const quiet = ['--isolated', '--no-input', '--disable-pip-version-check'];
  const run = await execa(pip.python, [...args, ...quiet], {
    reject: false,
    timeout: RESOLVE_TIMEOUT_MS,
    cancelSignal: signal,
    maxBuffer: 1024 * 1024,
  });
  const version = /^\S+ \(([^)\s]{1,64})\)$/m.exec(String(run.stdout))?.[1];
  if (run.exitCode === 0 && version && !('error' in parsePypiSpec(`${name}==${version}`))) return { version };
  // pip's warnings (its command is experimental, an index page it skipped) are not the reason.
  const errors = String(run.stderr)
    .split('\n')
    .filter((l) => l.startsWith('ERROR: '));
  const why = boundedTail(errors.map((l) => l.slice(7)).join('; '), 300);
  return { error: `pip found no version of ${name} in ${index}${why ? `: ${why}` : ''}` };
}

/** One venv for every resolution, made once per cache. */
async function resolverPip(cacheDir: string, signal?: AbortSignal): Promise<{ python: string } | { error: string }> {
  const venv = path.join(cacheDir, 'pypi-resolve', 'venv');
  const python = path.join(venv, 'bin', 'python');
  if (existsSync(python)) return { python };
  const host = findPython();
  if ('error' in host) return host;
  const { execa } = await import('execa');
  const made = await execa(host.executable, ['-m', 'venv', venv], { reject: false, cancelSignal: signal });
  return made.exitCode === 0 && existsSync(python)
    ? { python }
    : { error: `cannot make a venv to ask the index: ${boundedTail(String(made.stderr), 200)}` };
}
