/**
 * `--discover` and `idemscan where`: reads the MCP configuration of every client in the table
 * (clients.ts) at the places HOME, the project folder, the platform and the environment give, and
 * returns the files found, the servers they hold (one target per distinct server, `listedBy`
 * naming every client and file that lists it) and the skips. A file that is missing is no
 * finding; one that exists but cannot be read or parsed is a finding with the reason, never fatal.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { bounded } from '../../report/bounds.js';
import { fileErrorWords } from '../../report/error-words.js';
import { readBounded } from '../load.js';
import { TargetFileError, type SkippedTarget, type Target } from '../types.js';
import { locations, type Location } from './clients.js';
import { dirsFor, type DiscoverPlaces } from './dirs.js';
import { mergeTargets, type FoundTarget } from './merge.js';
import { parseDocument, syntaxOf } from './parse.js';
import { readDocument, ShapeError } from './readers.js';

export type { DiscoverPlaces } from './dirs.js';
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
  /** Why the file could not be used at all. */
  error?: string;
}

export interface Discovery {
  files: FoundFile[];
  /** One per distinct server, in table order, names unique. */
  targets: FoundTarget[];
  skipped: SkippedTarget[];
}

/** A folder of block files (Continue) holds a handful; the bound is for a folder that is something else. */
const MAX_DIR_FILES = 200;
const BLOCK_FILE = /\.(?:ya?ml|json)$/i;

export async function discover(places: DiscoverPlaces): Promise<Discovery> {
  const d = dirsFor(places);
  const env = d.env;
  const files: FoundFile[] = [];
  const found: FoundTarget[] = [];
  const skipped: SkippedTarget[] = [];
  for (const loc of locations(d)) {
    for (const file of loc.dir ? await filesIn(loc, files, skipped) : [loc.path]) {
      const one = await readOne(loc, file, env, places.project);
      if (!one) continue;
      files.push(one.found);
      if (one.found.error) skipped.push({ name: loc.client.name, source: file, reason: one.found.error });
      for (const s of one.skipped) skipped.push(s);
      for (const t of one.targets) found.push({ ...t, listedBy: [{ client: loc.client.name, file }] });
    }
  }
  return { files, targets: mergeTargets([], found) as FoundTarget[], skipped };
}

async function filesIn(loc: Location, files: FoundFile[], skipped: SkippedTarget[]): Promise<string[]> {
  try {
    const names = (await readdir(loc.path)).filter((n) => BLOCK_FILE.test(n)).sort();
    return names.slice(0, MAX_DIR_FILES).map((n) => path.join(loc.path, n));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    const error = `cannot read the folder: ${fileErrorWords(err)}`;
    files.push({ client: loc.client.name, scope: loc.scope, file: loc.path, servers: 0, skipped: 0, error });
    skipped.push({ name: loc.client.name, source: loc.path, reason: error });
    return [];
  }
}

interface ReadFile {
  found: FoundFile;
  targets: Target[];
  skipped: SkippedTarget[];
}

async function readOne(loc: Location, file: string, env: NodeJS.ProcessEnv, project: string | undefined): Promise<ReadFile | undefined> {
  const base: FoundFile = { client: loc.client.name, scope: loc.scope, file, servers: 0, skipped: 0 };
  const fail = (error: string): ReadFile => ({ found: { ...base, error }, targets: [], skipped: [] });
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
    const ctx = { file, env, workspaceFolder: loc.scope === 'project' ? project : undefined };
    const got = readDocument(loc.reader, parsed.value, ctx);
    // As the loader does: a reason quotes keys of the file, and one of megabytes is no use.
    const skips = got.skipped.map((s) => ({ ...s, name: bounded(s.name, 1_000), reason: bounded(s.reason, 1_000) }));
    return { found: { ...base, servers: got.targets.length, skipped: skips.length }, targets: got.targets, skipped: skips };
  } catch (err) {
    if (err instanceof ShapeError) return fail(err.message);
    throw err;
  }
}
