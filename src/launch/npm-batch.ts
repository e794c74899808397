/** Many entries by one pnpm process: a workspace of one project per entry, each published on its own (docs/PACKAGES.md). */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newPart, publish, type EntryInstall } from './npm-entry.js';
import { settleFiles } from './npm-files.js';
import { ownNpmProject, splitSpec } from './npm-cache.js';
import { engineMisfits } from './npm-engines.js';
import { pnpmEnv, pnpmWorkspaceArgs } from './pnpm.js';
import { pnpmfile } from './pnpmfile.js';

/** One resolution and one download of what the batch shares; a failure costs each entry an install of its own. */
export const BATCH_SIZE = 24;
const BATCH_TIMEOUT_MS = 20 * 60_000;

export interface BatchInstall {
  installed: Map<string, EntryInstall>;
  /** Entries whose picks want another Node: not published, to be installed alone with their picks fitted. */
  misfits: string[];
}

/**
 * Installs every spec (none with install scripts) in one `pnpm install -r`, or none: undefined when
 * pnpm failed, so that the caller installs each alone and learns which one and why.
 */
export async function installBatch(
  specs: string[],
  cacheDir: string,
  signal?: AbortSignal,
): Promise<BatchInstall | undefined> {
  const root = newPart(cacheDir, 'batch');
  try {
    await ownNpmProject(root);
    await writeFile(path.join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'e*'\n");
    await writeFile(path.join(root, '.pnpmfile.cjs'), pnpmfile({ cacheDir, fitEngines: false }));
    const projects = specs.map((spec, i) => ({ spec, dir: path.join(root, `e${i}`) }));
    for (const { spec, dir } of projects) await project(dir, spec);
    const { execa } = await import('execa');
    const run = await execa(process.execPath, pnpmWorkspaceArgs(cacheDir), {
      cwd: root,
      reject: false,
      timeout: BATCH_TIMEOUT_MS,
      extendEnv: false,
      env: pnpmEnv(),
      cancelSignal: signal,
    });
    if (run.exitCode !== 0 || signal?.aborted) return undefined;
    const installed = ({ spec, dir }: { spec: string; dir: string }) =>
      existsSync(path.join(dir, 'node_modules', splitSpec(spec).name, 'package.json'));
    if (!projects.every(installed)) return undefined;
    const out: BatchInstall = { installed: new Map(), misfits: [] };
    for (const { spec, dir } of projects) {
      if ((await engineMisfits(dir, spec)).length > 0) {
        out.misfits.push(spec);
        continue;
      }
      await settleFiles(dir, cacheDir);
      out.installed.set(spec, await publish(dir, spec, cacheDir, false));
    }
    return out;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** An entry's project: its one dependency, as `pnpm add SPEC` would have written it. */
async function project(dir: string, spec: string): Promise<void> {
  const { name, version } = splitSpec(spec);
  await mkdir(dir);
  const manifest = {
    private: true,
    name: `idemscan-cache-entry-${path.basename(dir)}`,
    dependencies: { [name]: version },
  };
  await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest));
}
