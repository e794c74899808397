/** A bad client file is a finding, never fatal; project-scope servers are found but scanned only on request. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { bounded } from '../../model/bounds.js';
import { fileErrorWords } from '../../model/error-words.js';
import { allowedEnv } from '../expand.js';
import { readBounded } from '../load.js';
import { TargetFileError, type SkippedTarget, type Target } from '../types.js';
import { capDocument, MAX_SERVERS_PER_FILE, MAX_SERVERS_TOTAL, type Budget } from './cap.js';
import { locations, type Location } from './clients.js';
import { dirsFor, type DiscoverPlaces } from './dirs.js';
import { mergeTargets, type FoundTarget } from './merge.js';
import { parseDocument, syntaxOf } from './parse.js';
import { readDocument, ShapeError, type ReaderContext } from './readers.js';

export type { DiscoverPlaces } from './dirs.js';
export { MAX_SERVERS_PER_FILE, MAX_SERVERS_TOTAL } from './cap.js';
export { CLIENTS, locations } from './clients.js';
export { identity, mergeTargets, type FoundTarget } from './merge.js';

export interface FoundFile {
  client: string;
  scope: 'user' | 'project';
  file: string;
  /** Servers the file lists that can be scanned (before servers listed elsewhere too are merged). */
  servers: number;
  /** Entries of the file that were skipped (disabled, invalid), each in `Discovery.skipped`. */
  skipped: number;
  /** Of `servers`, those that are project-scoped (all of a project file's; Claude Code's `projects` entries). */
  projectServers: number;
  /** Entries beyond the bounds (MAX_SERVERS_PER_FILE, MAX_SERVERS_TOTAL), not read. */
  leftOut?: number;
  error?: string;
}

export interface Discovery {
  files: FoundFile[];
  /** One per distinct server; project-scope ones only with `projectConfigs`. */
  targets: FoundTarget[];
  /** Without `projectConfigs`: project-scope servers, a cloned repository's, not to be started unasked. */
  projectTargets: FoundTarget[];
  skipped: SkippedTarget[];
}

/** A folder of block files (Continue) holds a handful; the bound is for a folder that is something else. */
const MAX_DIR_FILES = 200;
const BLOCK_FILE = /\.(?:ya?ml|json)$/i;

export interface DiscoverOptions extends DiscoverPlaces {
  /** Variables a project-scoped entry may read from `env` (`--allow-env`); none by default. */
  allowEnv?: readonly string[];
  /** Put project-scope servers in `targets` (`--project-configs`); by default only in `projectTargets`. */
  projectConfigs?: boolean;
}

export async function discover(places: DiscoverOptions): Promise<Discovery> {
  const d = dirsFor(places);
  const env = d.env;
  const projectEnv = allowedEnv(env, places.allowEnv ?? []);
  const files: FoundFile[] = [];
  const found: FoundTarget[] = [];
  const skipped: SkippedTarget[] = [];
  let totalLeft = MAX_SERVERS_TOTAL;
  for (const loc of locations(d)) {
    for (const file of loc.dir ? await filesIn(loc, files, skipped) : [loc.path]) {
      const budget: Budget = { left: Math.min(MAX_SERVERS_PER_FILE, totalLeft), cut: 0 };
      const one = await readOne(loc, file, { env, projectEnv, project: places.project, budget });
      if (!one) continue;
      totalLeft -= one.found.servers + one.found.skipped;
      files.push(one.found);
      if (one.found.error) skipped.push({ name: loc.client.name, source: file, reason: one.found.error });
      for (const s of one.skipped) skipped.push(s);
      if (budget.cut > 0) {
        one.found.leftOut = budget.cut;
        const reason = `${budget.cut.toLocaleString('en-US')} more entries left out: discovery reads at most ${MAX_SERVERS_PER_FILE.toLocaleString('en-US')} servers per file and ${MAX_SERVERS_TOTAL.toLocaleString('en-US')} in all`;
        skipped.push({ name: loc.client.name, source: file, reason });
      }
      for (const t of one.targets)
        found.push({
          ...t,
          scope: one.project.has(t) ? 'project' : loc.scope,
          listedBy: [{ client: loc.client.name, file }],
        });
    }
  }
  // User files first: a server of the user's keeps its name whether or not project ones are scanned.
  const user = mergeTargets(
    [],
    found.filter((t) => t.scope === 'user'),
  );
  const all = mergeTargets(
    user,
    found.filter((t) => t.scope === 'project'),
  ) as FoundTarget[];
  if (places.projectConfigs) return { files, targets: all, projectTargets: [], skipped };
  return {
    files,
    targets: all.filter((t) => t.scope !== 'project'),
    projectTargets: all.filter((t) => t.scope === 'project'),
    skipped,
  };
}

async function filesIn(loc: Location, files: FoundFile[], skipped: SkippedTarget[]): Promise<string[]> {
  try {
    const names = (await readdir(loc.path)).filter((n) => BLOCK_FILE.test(n)).sort();
    return names.slice(0, MAX_DIR_FILES).map((n) => path.join(loc.path, n));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    const error = `cannot read the folder: ${fileErrorWords(err)}`;
    files.push({
      client: loc.client.name,
      scope: loc.scope,
      file: loc.path,
      servers: 0,
      skipped: 0,
      projectServers: 0,
      error,
    });
    skipped.push({ name: loc.client.name, source: loc.path, reason: error });
    return [];
  }
}

interface ReadFile {
  found: FoundFile;
  targets: Target[];
  skipped: SkippedTarget[];
  project: Set<Target>;
}

interface ReadPlaces {
  env: NodeJS.ProcessEnv;
  projectEnv: NodeJS.ProcessEnv;
  project: string | undefined;
  budget: Budget;
}

async function readOne(loc: Location, file: string, at: ReadPlaces): Promise<ReadFile | undefined> {
  const base: FoundFile = {
    client: loc.client.name,
    scope: loc.scope,
    file,
    servers: 0,
    skipped: 0,
    projectServers: 0,
  };
  const fail = (error: string): ReadFile => ({
    found: { ...base, error },
    targets: [],
    skipped: [],
    project: new Set(),
  });
  try {
    const info = await stat(file);
    if (info.isDirectory()) return fail('a directory, not a file');
    // A FIFO would block the read until something writes to it; a device has no end.
    if (!info.isFile()) return fail('not a regular file');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return fail(`cannot read: ${fileErrorWords(err)}`);
  }
  let text: string;
  try {
    text = await readBounded(file);
  } catch (err) {
    if (err instanceof TargetFileError) return fail(err.detail);
    throw err;
  }
  const parsed = parseDocument(text, syntaxOf(file, 'json'));
  if ('error' in parsed) return fail(parsed.error);
  try {
    // A project's files may be a cloned repository's: they read only the variables the user allowed.
    const projectCtx = { file, env: at.projectEnv, workspaceFolder: at.project, untrusted: 'a project-scope config' };
    const ctx: ReaderContext =
      loc.scope === 'project' ? { ...projectCtx, projectCtx } : { file, env: at.env, projectCtx };
    const doc =
      parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)
        ? capDocument(loc.reader, parsed.value as Record<string, unknown>, at.budget)
        : parsed.value;
    const got = readDocument(loc.reader, doc, ctx);
    const project = loc.scope === 'project' ? new Set(got.targets) : (got.project ?? new Set<Target>());
    // As the loader does: a reason quotes keys of the file, and one of megabytes is no use.
    const skips = got.skipped.map((s) => ({ ...s, name: bounded(s.name, 1_000), reason: bounded(s.reason, 1_000) }));
    const found = { ...base, servers: got.targets.length, skipped: skips.length, projectServers: project.size };
    return { found, targets: got.targets, skipped: skips, project };
  } catch (err) {
    if (err instanceof ShapeError) return fail(err.message);
    throw err;
  }
}
