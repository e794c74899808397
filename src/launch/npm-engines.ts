/** Whether an installed entry's tree holds packages that want another Node than this one. */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import satisfies from 'semver/functions/satisfies.js';
import validRange from 'semver/ranges/valid.js';

/** A package.json is a few KB: one far larger is not read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * `name@version` of each package in the entry's virtual store (`node_modules/.pnpm`) whose
 * `engines.node` this Node does not satisfy, but for the entry's own pinned package: pnpm picked
 * the highest version of each range where npm would have picked one that fits.
 */
export async function engineMisfits(entryDir: string, spec: string): Promise<string[]> {
  const store = path.join(entryDir, 'node_modules', '.pnpm');
  const misfits: string[] = [];
  for (const slot of entries(store)) {
    if (!slot.isDirectory() || slot.name === 'node_modules') continue;
    for (const dir of packageDirs(path.join(store, slot.name, 'node_modules'))) {
      const found = misfit(dir);
      if (found && found !== spec) misfits.push(found);
    }
    // A tree has hundreds of packages: the event loop turns between them.
    await setImmediate();
  }
  return [...new Set(misfits)];
}

/** The package directories (not the links to its dependencies) under one slot's node_modules. */
function packageDirs(modules: string): string[] {
  const dirs: string[] = [];
  for (const entry of entries(modules)) {
    const at = path.join(modules, entry.name);
    if (entry.isDirectory() && entry.name.startsWith('@')) {
      for (const scoped of entries(at)) if (scoped.isDirectory()) dirs.push(path.join(at, scoped.name));
    } else if (entry.isDirectory()) dirs.push(at);
  }
  return dirs;
}

/** A directory's entries; none when it is not there (a tree without a virtual store has nothing to say). */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function misfit(dir: string): string | undefined {
  const file = path.join(dir, 'package.json');
  try {
    if (statSync(file).size > MAX_MANIFEST_BYTES) return undefined;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown; engines?: unknown };
    const range = (pkg.engines as { node?: unknown } | undefined)?.node;
    if (typeof range !== 'string' || !validRange(range) || satisfies(process.versions.node, range)) return undefined;
    return `${String(pkg.name)}@${String(pkg.version)}`;
  } catch {
    return undefined; // no manifest, or not JSON: nothing to say of its engines
  }
}
