/**
 * pnpm's `readPackage` hook (`.pnpmfile.cjs`, written into each install's root), for what npm's
 * resolution does and pnpm's does not (docs/PACKAGES.md):
 * - the SDK's peer `zod` comes from the SDK's own range, not from a server's older zod (no `zod/v4`);
 * - a name in both `dependencies` and `peerDependencies` is a dependency, which npm installs and
 *   pnpm leaves to an optional peer's absence;
 * - a `file:` or `link:` dependency of a published package points into its author's machine, and
 *   npm leaves it out;
 * - with `fitEngines`, a dependency whose pick wants another Node gets the version of its range npm
 *   would pick (not deprecated, then fitting this Node's `engines.node`, then the highest), from
 *   pnpm's metadata cache, which the first install of the entry filled.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { metadataDir } from './pnpm.js';

export interface PnpmfileOptions {
  cacheDir: string;
  fitEngines: boolean;
}

export function pnpmfile({ cacheDir, fitEngines }: PnpmfileOptions): string {
  const settings = {
    semver: createRequire(import.meta.url).resolve('semver'),
    // pnpm 10's layout of its abbreviated metadata: <dir>/metadata-v1.3/<registry host>/<name>.json.
    metadata: path.join(metadataDir(cacheDir), 'metadata-v1.3'),
    fitEngines,
  };
  return `const settings = ${JSON.stringify(settings)};\n${HOOK}`;
}

const HOOK = `const fs = require('fs');
const path = require('path');
const semver = require(settings.semver);
const NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const fitsNode = (engines) => {
  const range = engines && engines.node;
  return typeof range !== 'string' || !semver.validRange(range) || semver.satisfies(process.versions.node, range);
};
const known = new Map();
function metadata(name) {
  if (!known.has(name)) {
    let found;
    const hosts = NAME.test(name) ? (fs.existsSync(settings.metadata) ? fs.readdirSync(settings.metadata) : []) : [];
    for (const host of hosts) {
      try {
        found = JSON.parse(fs.readFileSync(path.join(settings.metadata, host, name + '.json'), 'utf8'));
        break;
      } catch {}
    }
    known.set(name, found);
  }
  return known.get(name);
}
function fitted(name, range) {
  const meta = metadata(name);
  if (!meta || !meta.versions || !semver.validRange(range)) return range;
  const versions = meta.versions;
  const latest = meta['dist-tags'] && meta['dist-tags'].latest;
  const inRange = Object.keys(versions).filter((v) => semver.satisfies(v, range));
  const picked = latest && inRange.includes(latest) ? latest : semver.maxSatisfying(inRange, range);
  if (!picked || fitsNode(versions[picked].engines)) return range;
  // npm's order: not deprecated, then fitting this Node, then the highest.
  const rank = (v) => (versions[v].deprecated ? 0 : 2) + (fitsNode(versions[v].engines) ? 1 : 0);
  const best = inRange.sort((a, b) => rank(b) - rank(a) || semver.rcompare(a, b))[0];
  return best === picked ? range : best;
}
module.exports = { hooks: { readPackage(pkg) {
  const peers = pkg.peerDependencies || {};
  if (pkg.name === '@modelcontextprotocol/sdk' && peers.zod) {
    pkg.dependencies = { ...pkg.dependencies, zod: peers.zod };
    delete peers.zod;
  }
  for (const name of Object.keys(peers))
    if (pkg.dependencies && Object.hasOwn(pkg.dependencies, name)) {
      delete peers[name];
      if (pkg.peerDependenciesMeta) delete pkg.peerDependenciesMeta[name];
    }
  for (const field of ['dependencies', 'optionalDependencies'])
    for (const [name, range] of Object.entries(pkg[field] || {})) {
      if (/^(file|link):/.test(String(range))) delete pkg[field][name];
      else if (settings.fitEngines && typeof range === 'string') pkg[field][name] = fitted(name, range);
    }
  return pkg;
} } };
`;
