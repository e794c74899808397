/** Before any server starts: runners become package targets, versions resolved, packages checked and installed. */
import { type InstallResult } from './npm.js';
import { installMissing, missingTargets, packageOf, packageProblems } from './packages.js';
import { npmLaunchTargets, resolveUnpinned, withResolved } from './npm-launch.js';
import { pypiLaunchTargets } from './pypi-launch.js';
import { resolvePypiUnpinned, withPypiResolved } from './pypi-resolve.js';
import { defaultSupport, sandboxSupport } from './sandbox.js';
import { transportOf } from '../targets/kind.js';
import type { Target } from '../targets/types.js';

export type PrepareEvent =
  | { type: 'install'; packages: string[]; cacheDir: string }
  | { type: 'installed'; result: InstallResult }
  /** Something the user should know once, in one line (e.g. --sandbox falling back to less). */
  | { type: 'warning'; message: string };

export interface PrepareOptions {
  install?: boolean;
  /** PyPI: let pip build source distributions (a warning says what that runs). */
  allowSdist?: boolean;
  /** `--sandbox`: the note says what this machine's sandbox falls back to. */
  sandbox?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: PrepareEvent) => void;
}

export interface Prepared {
  targets: Target[];
  specs: string[];
  /** Why a package cannot run, by spec: resolution, checks and installs that failed. */
  installErrors: Map<string, string>;
  installs: InstallResult[];
}

export const SDIST_WARNING =
  '--allow-sdist: PyPI packages without a wheel are built from source, which runs their build code (setup.py, build backends) at install time, outside any sandbox, with the network';

/** Before anything is installed (a scan's, `idemscan install`'s). */
export interface CheckedTargets {
  targets: Target[];
  /** Why a package cannot run, by spec: unpinned ones not resolved, and the package checks. */
  installErrors: Map<string, string>;
}

/** Target files are checked when read, a library caller's own targets here, before npm or pip runs. */
export async function checkedTargets(
  listed: Target[],
  online: boolean,
  cacheDir: string,
  signal?: AbortSignal,
): Promise<CheckedTargets> {
  const launched = pypiLaunchTargets(npmLaunchTargets(listed));
  const resolution = await resolveUnpinned(launched, online, cacheDir, signal);
  const pypi = await resolvePypiUnpinned(launched, online, cacheDir, signal);
  const targets = withPypiResolved(withResolved(launched, resolution), pypi);
  const installErrors = new Map([...resolution.errors, ...pypi.errors]);
  packageProblems(targets, installErrors);
  return { targets, installErrors };
}

export async function prepareTargets(
  listed: Target[],
  options: PrepareOptions,
  cacheDir: string,
  concurrency: number,
): Promise<Prepared> {
  const warn = (message: string) => options.onProgress?.({ type: 'warning', message });
  const { targets, installErrors } = await checkedTargets(listed, !!options.install, cacheDir, options.signal);
  const stdio = targets.some((t) => transportOf(t) === 'stdio');
  const sandboxNote = options.sandbox ? sandboxSupport().note : stdio ? defaultSupport().note : undefined;
  if (sandboxNote) warn(sandboxNote);
  const specs = targets.map((t) => packageOf(t)?.spec).filter((s): s is string => s !== undefined);
  const missing = [...new Set(missingTargets(targets, cacheDir, installErrors).map((p) => p.spec))];
  const install = missing.length > 0 && !!options.install;
  if (install) options.onProgress?.({ type: 'install', packages: missing, cacheDir });
  if (options.allowSdist && targets.some((t) => packageOf(t)?.type === 'pypi')) warn(SDIST_WARNING);
  const onDone = (result: InstallResult) => options.onProgress?.({ type: 'installed', result });
  const ctx = { cacheDir, concurrency, signal: options.signal, onDone, allowSdist: options.allowSdist };
  const installs = install ? await installMissing(targets, ctx, installErrors) : [];
  for (const r of installs) if (!r.ok) installErrors.set(r.spec, r.error ?? 'install failed');
  // A note may be several lines (a bundle's sources that failed before one verified): a warning each.
  for (const r of installs) for (const line of r.note?.split('\n') ?? []) warn(line);
  return { targets, specs, installErrors, installs };
}
