/** Checks before anything is installed or called; a failure removes the scratch directories made so far. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sandboxSupport } from '../../launch/sandbox.js';
import { InputError } from '../../model/input-error.js';
import { plannedCalls, type ProbePlan } from '../../model/probe-plan.js';
import type { Target } from '../../targets/types.js';
import { checkOutputDir } from '../../app/output.js';
import { materialize, readLibrary, type LibraryEntry } from './probe-library.js';
import { checkWritable, refuseUnbound } from '../../app/writable.js';

/** The table's files in `--out`, and the folder of the probe reports beside them. */
export const TABLE_FILES = ['behaviour.json', 'behaviour.md', 'behaviour.html'] as const;
export const REPORTS_DIR = 'reports';
/** Where the published table lives: the census index reads ROOT/behaviour/behaviour.json. */
export const DEFAULT_OUT = 'output/ecosystem/behaviour';

export interface CensusInputs {
  /** The library folder as given (`method.library`). */
  dir: string;
  only?: readonly string[];
  /** `--out`; without it the published table's directory, which a part of the library must not replace. */
  out?: string;
  cacheDir?: string;
}

/** One library server, ready to probe: its target and plan with the placeholders replaced. */
export interface CensusServer {
  entry: LibraryEntry;
  target: Target;
  plan: ProbePlan;
  /** Its fresh scratch directory (real path), bound read-write: the only one. */
  scratch: string;
  writable: string[];
}

export interface PreparedCensus {
  servers: CensusServer[];
  /** The tools all plans call, for the line said before anything starts. */
  calls: number;
  out: string;
}

/** Every check before an install or a call; the scratch directories are made here. */
export async function prepareCensus(inputs: CensusInputs): Promise<PreparedCensus> {
  const support = sandboxSupport();
  if (support.mode !== 'bubblewrap')
    throw new InputError(
      `probe-census runs the plan library only under --sandbox with bubblewrap, which does not work here (${support.note ?? support.mode}); install bubblewrap (docs/SANDBOX.md); nothing was started`,
    );
  const out = outOf(inputs);
  const entries = await readLibrary(inputs.dir, inputs.only);
  await checkOutputDir('--out', out, [...TABLE_FILES]);
  const reports = entries.map((e) => `${e.name}.json`);
  await checkOutputDir('--out', path.join(out, REPORTS_DIR), reports);
  const library = await realpath(inputs.dir);
  const servers: CensusServer[] = [];
  try {
    for (const entry of entries) servers.push(await prepareOne(entry, library, inputs.cacheDir));
  } catch (err) {
    await removeScratch(servers);
    throw err;
  }
  const calls = servers.reduce((n, s) => n + callsOf(s.plan), 0);
  return { servers, calls, out };
}

/** `--out`, else the published table's directory, but never for a part of the library (`--only`). */
function outOf(inputs: CensusInputs): string {
  if (inputs.out !== undefined) return inputs.out;
  if (inputs.only?.length)
    throw new InputError(
      `--only probes part of the library: give --out DIR, so the published table (${DEFAULT_OUT}) is not replaced by a part of it; nothing was started`,
    );
  return DEFAULT_OUT;
}

async function prepareOne(entry: LibraryEntry, library: string, cacheDir: string | undefined): Promise<CensusServer> {
  const scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), `idemscan-scratch-${entry.name}-`)));
  try {
    const { target, plan } = materialize(entry, { scratch, library });
    const flags = { sandbox: true, writable: [scratch], cacheDir };
    const writable = checkWritable(flags) ?? [scratch];
    refuseUnbound(target, writable, flags, {
      fix: 'keep it under ${scratch}, the one directory a library server may write',
    });
    return { entry, target, plan, scratch, writable };
  } catch (err) {
    await rm(scratch, { recursive: true, force: true });
    if (err instanceof InputError && err.file === undefined)
      throw new InputError(err.shown ?? err.detail, {
        file: entry.file,
        ...(err.field === undefined ? {} : { field: err.field }),
      });
    throw err;
  }
}

const callsOf = (plan: ProbePlan): number => {
  const { tools, observers, setup } = plannedCalls(plan);
  return new Set([...tools, ...observers, ...setup]).size;
};

export async function removeScratch(servers: readonly Pick<CensusServer, 'scratch'>[]): Promise<void> {
  for (const s of servers) await rm(s.scratch, { recursive: true, force: true });
}
