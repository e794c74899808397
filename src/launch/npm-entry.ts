/** All-or-nothing npm installs: pnpm writes a private part, renamed onto the entry only once it has succeeded. */
// pnpm writes package.json (the installed mark) early: a cut-short install must never sit at the entry's name.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isInstalled, ownNpmProject, packageDir, splitSpec } from './npm-cache.js';
import { pnpmAddArgs, pnpmEnv } from './pnpm.js';
import { pnpmfile } from './pnpmfile.js';
import { engineMisfits } from './npm-engines.js';
import { settleFiles } from './npm-files.js';
import { npmErrorText } from './npm-errors.js';

const INSTALL_TIMEOUT_MS = 10 * 60_000;
/** A part older than this is left over whoever made it: no install outlives its timeout. */
const STALE_PART_MS = 12 * INSTALL_TIMEOUT_MS;
/** `-HOST-PID-RANDOM` at the end of a part's name; HOST tells another machine's part on a shared cache. */
const PART = /-([0-9a-f]{8})-(\d+)-[0-9a-f]{8}$/;
const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);

export type EntryInstall = { ok: true } | { ok: false; canceled: boolean; error: string };

const partsDir = (cacheDir: string) => path.join(cacheDir, 'npm', '.parts');
/** A new part for `spec` of process `pid` on this machine (exported for the tests of sweepParts). */
export const newPart = (cacheDir: string, spec: string, pid = process.pid) =>
  path.join(
    partsDir(cacheDir),
    `${path.basename(packageDir(cacheDir, spec))}-${HOST}-${pid}-${randomBytes(4).toString('hex')}`,
  );

export interface EntrySteps {
  signal?: AbortSignal;
  /** The install scripts, run in the part before it is published; an error stops it. Its files are then copies. */
  build?: (part: string) => Promise<string | undefined>;
  /** Dependencies fitted to this Node from the first install: a batch found that the highest picks want another. */
  fitEngines?: boolean;
}

export async function installEntry(spec: string, cacheDir: string, steps: EntrySteps = {}): Promise<EntryInstall> {
  const part = newPart(cacheDir, spec);
  try {
    const failed = (await addFitted(part, spec, cacheDir, steps)) ?? (await buildIn(part, steps));
    if (failed) return failed;
    // An entry that ran install scripts keeps its copies: the scripts wrote into them.
    await settleFiles(part, steps.build ? undefined : cacheDir);
    return await publish(part, spec, cacheDir, steps.build !== undefined);
  } finally {
    await rm(part, { recursive: true, force: true });
  }
}

async function buildIn(part: string, { signal, build }: EntrySteps): Promise<EntryInstall | undefined> {
  const error = await build?.(part);
  if (signal?.aborted) return { ok: false, canceled: true, error: 'interrupted' };
  return error ? { ok: false, canceled: false, error } : undefined;
}

/** pnpm's picks, again fitted to this Node when some of the first want another (npm picks those that fit). */
async function addFitted(
  part: string,
  spec: string,
  cacheDir: string,
  steps: EntrySteps,
): Promise<EntryInstall | undefined> {
  const fitEngines = steps.fitEngines === true;
  const failed = await add(part, spec, cacheDir, steps, fitEngines);
  if (failed || fitEngines || (await engineMisfits(part, spec)).length === 0) return failed;
  await rm(part, { recursive: true, force: true });
  return add(part, spec, cacheDir, steps, true);
}

/** `pnpm add` into the part: undefined once the package is there. */
async function add(
  part: string,
  spec: string,
  cacheDir: string,
  { signal, build }: EntrySteps,
  fitEngines: boolean,
): Promise<EntryInstall | undefined> {
  await ownNpmProject(part);
  await writeFile(path.join(part, '.pnpmfile.cjs'), pnpmfile({ cacheDir, fitEngines }));
  const { execa } = await import('execa'); // loaded when pnpm runs: ~0.1 s of start-up otherwise
  // No package code runs here, so pnpm gets the user's npm settings (registry, auth for private
  // packages, proxy) and nothing else.
  const run = await execa(process.execPath, pnpmAddArgs(spec, cacheDir, build !== undefined), {
    cwd: part,
    reject: false,
    timeout: INSTALL_TIMEOUT_MS,
    extendEnv: false,
    env: pnpmEnv(),
    cancelSignal: signal,
    all: true,
  });
  if (run.isCanceled) return { ok: false, canceled: true, error: 'interrupted' };
  const installed = path.join(part, 'node_modules', splitSpec(spec).name, 'package.json');
  if (run.exitCode !== 0 || !existsSync(installed))
    return { ok: false, canceled: false, error: npmErrorText(String(run.all || run.message)) };
  return undefined;
}

/** A rename onto a non-empty directory fails, so another's entry is never replaced; a half entry is moved aside. */
export async function publish(
  part: string,
  spec: string,
  cacheDir: string,
  withScripts: boolean,
): Promise<EntryInstall> {
  const dir = packageDir(cacheDir, spec);
  for (let attempt = 1; ; attempt++) {
    try {
      await rename(part, dir);
      return { ok: true };
    } catch (err) {
      if (isInstalled(cacheDir, spec, withScripts)) return { ok: true };
      if (attempt === 2)
        return { ok: false, canceled: false, error: `cannot publish ${dir}: ${(err as Error).message}` };
    }
    // Two processes may both find it in the way; the second may then move aside the first's fresh
    // entry, and publish its own, as good, at the same path before the next attempt.
    const aside = newPart(cacheDir, spec);
    await rename(dir, aside).catch(() => undefined);
    await rm(aside, { recursive: true, force: true });
  }
}

/** Removes the parts of ended processes on this machine, and any part older than an install can run. */
export async function sweepParts(cacheDir: string): Promise<void> {
  const dir = partsDir(cacheDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const at = path.join(dir, name);
      const match = PART.exec(name);
      const gone = match?.[1] === HOST && !alive(Number(match[2]));
      const age = Date.now() - ((await stat(at).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (gone || age > STALE_PART_MS) await rm(at, { recursive: true, force: true });
    }),
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process is there, another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
