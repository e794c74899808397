/** npm packages install through pnpm: one content-addressed store per cache, each entry a tree of its own (docs/PACKAGES.md). */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { npmEnv } from './npm-cache.js';

/** pnpm's CLI, one of idemscan's dependencies, pinned in package.json: no global pnpm is needed. */
const pnpmCli = (): string =>
  // Its `exports` give only package.json: the bin sits beside it.
  path.join(path.dirname(createRequire(import.meta.url).resolve('pnpm')), 'bin', 'pnpm.cjs');

/** Beside the entries, so that an entry's files can be hard links to the store's (same file system). */
const storeDir = (cacheDir: string) => path.join(cacheDir, 'npm', '.store');
/** pnpm 10's content-addressed file of that sha512 (hex), as its store names it: `-exec` for an executable. */
export const storeFile = (cacheDir: string, sha512: string, executable: boolean): string =>
  path.join(storeDir(cacheDir), 'v10', 'files', sha512.slice(0, 2), `${sha512.slice(2)}${executable ? '-exec' : ''}`);
/** pnpm's metadata cache: in the cache dir too, so that one directory holds everything a CI runner keeps. */
export const metadataDir = (cacheDir: string) => path.join(cacheDir, 'npm', '.metadata');

/**
 * The isolated layout with each project's virtual store inside it (`node_modules/.pnpm`), so a
 * sandboxed server needs nothing of the store. `copy`: files copied, not hard-linked, for an entry
 * whose install scripts will write into its packages.
 */
function installFlags(cacheDir: string, copy: boolean): string[] {
  return [
    '--ignore-scripts',
    '--reporter=append-only',
    `--store-dir=${storeDir(cacheDir)}`,
    `--config.cache-dir=${metadataDir(cacheDir)}`,
    '--config.lockfile=false',
    '--config.node-linker=isolated',
    '--config.virtual-store-dir=node_modules/.pnpm',
    '--config.enable-global-virtual-store=false',
    `--config.package-import-method=${copy ? 'copy' : 'hardlink'}`,
    '--config.side-effects-cache=false',
    '--config.manage-package-manager-versions=false',
    '--config.update-notifier=false',
  ];
}

/**
 * The user's npm settings, and as many of pnpm's tarball workers as there are cores: it keeps one
 * core for its main thread, which mostly waits on them (one worker on a 2-core runner).
 */
export const pnpmEnv = (): Record<string, string> => ({
  ...npmEnv(),
  PNPM_MAX_WORKERS: String(availableParallelism()),
});

/** `pnpm add SPEC` into one entry's project. */
export const pnpmAddArgs = (spec: string, cacheDir: string, copy: boolean): string[] => [
  pnpmCli(),
  'add',
  spec,
  ...installFlags(cacheDir, copy),
];

/** `pnpm install -r` of a workspace whose projects are entries: one resolution and one download of what they share. */
export const pnpmWorkspaceArgs = (cacheDir: string): string[] => [
  pnpmCli(),
  'install',
  '--recursive',
  '--config.shared-workspace-lockfile=false',
  '--config.link-workspace-packages=false',
  ...installFlags(cacheDir, false),
];

/** `pnpm rebuild` of an entry, in the sandbox: the install scripts the entry's target declares. */
export const pnpmRebuildArgs = (): string[] => [
  pnpmCli(),
  'rebuild',
  '--reporter=append-only',
  // pnpm 10 runs no dependency's scripts unless allowed: the target declared that this entry needs them.
  '--config.dangerously-allow-all-builds=true',
  '--config.side-effects-cache=false',
  '--config.manage-package-manager-versions=false',
  '--config.update-notifier=false',
];

/** What the sandbox binds read-only so that `pnpm rebuild` runs there: pnpm's own package. */
export const pnpmPackageDir = (): string => path.dirname(path.dirname(pnpmCli()));
