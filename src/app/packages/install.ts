/** `install`: target files' packages into the cache ahead of a scan; never prints (cli/install-command.ts does). */
import { defaultCacheDir } from '../../model/cache-dir.js';
import { checkedTargets, SDIST_WARNING } from '../../launch/prepare.js';
import type { InstallResult } from '../../launch/npm.js';

export type { InstallResult };
import type { SkippedTarget, Target } from '../../targets/types.js';
import { loadTargets } from '../load-targets.js';

export interface InstallOptions {
  concurrency: number;
  cacheDir?: string;
  allowEnv?: readonly string[];
  allowSdist?: boolean;
  /** Stops the installs (npm is ended): `probe-census` after a signal. */
  signal?: AbortSignal;
}

export type InstallEvent =
  | { type: 'skipped'; target: SkippedTarget }
  /** A package spec that is refused or cannot be resolved: it is not installed. */
  | { type: 'refused'; spec: string; error: string }
  | { type: 'warning'; message: string }
  /** The installs begin: `packages` is how many distinct ones there are, cached ones included. */
  | { type: 'start'; packages: number }
  /** One package done: installed, failed, or already in the cache (`ms` 0). */
  | { type: 'done'; result: InstallResult };

export interface InstallOutcome {
  cacheDir: string;
  results: InstallResult[];
  refused: number;
}

export async function install(
  files: string[],
  options: InstallOptions,
  onEvent: (e: InstallEvent) => void,
): Promise<InstallOutcome> {
  const loaded = await loadTargets(files, options.allowEnv);
  for (const target of loaded.skipped) onEvent({ type: 'skipped', target });
  return installTargets(loaded.targets, options, onEvent);
}

export async function installTargets(
  listed: Target[],
  options: Omit<InstallOptions, 'allowEnv'>,
  onEvent: (e: InstallEvent) => void,
): Promise<InstallOutcome> {
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  // The scan's own steps (launch/prepare.ts), online: install resolves unpinned ones as a scan would now.
  const { targets, installErrors: errors } = await checkedTargets(listed, true, cacheDir, options.signal);
  for (const [spec, error] of errors) onEvent({ type: 'refused', spec, error });
  if (options.allowSdist && targets.some((t) => t.kind === 'package' && t.package.type === 'pypi'))
    onEvent({ type: 'warning', message: SDIST_WARNING });
  const { installMissing, packageOf } = await import('../../launch/packages.js');
  const specs = new Set(targets.map((t) => packageOf(t)?.spec).filter((s) => s !== undefined && !errors.has(s)));
  onEvent({ type: 'start', packages: specs.size });
  const onDone = (result: InstallResult) => onEvent({ type: 'done', result });
  // Cached ones are listed too: installMissing skips them, so they are told here.
  const cached = await cachedResults(targets, cacheDir, errors);
  for (const r of cached) onDone(r);
  const ctx = {
    cacheDir,
    concurrency: options.concurrency,
    onDone,
    allowSdist: options.allowSdist,
    signal: options.signal,
  };
  const installed = await installMissing(targets, ctx, errors);
  return { cacheDir, results: [...cached, ...installed], refused: errors.size };
}

async function cachedResults(targets: Target[], cacheDir: string, errors: ReadonlyMap<string, string>) {
  const { packageOf } = await import('../../launch/packages.js');
  const cached = new Map<string, InstallResult>();
  for (const t of targets) {
    const p = packageOf(t);
    if (p && !errors.has(p.spec) && p.kind.installed(p.target, cacheDir) && !cached.has(p.spec))
      cached.set(p.spec, { spec: p.spec, ok: true, ms: 0 });
  }
  return [...cached.values()];
}
