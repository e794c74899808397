/** npm packages install through pnpm: one content-addressed store per cache, each entry a tree of its own (docs/PACKAGES.md). */
import { createRequire } from 'node:module';
import path from 'node:path';

/** pnpm's CLI, one of idemscan's dependencies, pinned in package.json: no global pnpm is needed. */
const pnpmCli = (): string =>
  // Its `exports` give only package.json: the bin sits beside it.
  path.join(path.dirname(createRequire(import.meta.url).resolve('pnpm')), 'bin', 'pnpm.cjs');

/** Beside the entries, so that an entry's files can be hard links to the store's (same file system). */
const storeDir = (cacheDir: string) => path.join(cacheDir, 'npm', '.store');
/** pnpm's metadata cache: in the cache dir too, so that one directory holds everything a CI runner keeps. */
const metadataDir = (cacheDir: string) => path.join(cacheDir, 'npm', '.metadata');

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

/**
 * pnpm's `readPackage` hook (`.pnpmfile.cjs`, written into each install's root), for what npm's
 * resolution tolerates and pnpm's does not: the SDK's peer `zod` comes from the SDK's own range, not
 * from a server's older zod (which lacks `zod/v4`); a `file:` or `link:` dependency of a published
 * package points into its author's machine, and npm leaves it out.
 */
export const PNPMFILE = `module.exports = { hooks: { readPackage(pkg) {
  const peers = pkg.peerDependencies || {};
  if (pkg.name === '@modelcontextprotocol/sdk' && peers.zod) {
    pkg.dependencies = { ...pkg.dependencies, zod: peers.zod };
    delete peers.zod;
  }
  for (const field of ['dependencies', 'optionalDependencies'])
    for (const [name, range] of Object.entries(pkg[field] || {}))
      if (/^(file|link):/.test(String(range))) delete pkg[field][name];
  return pkg;
} } };
`;

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
