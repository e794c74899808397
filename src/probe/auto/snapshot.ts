// What a tool call changed on disk under `probe --auto`: the sandbox's writable directories, walked
// before and after. Everything in them is the server's: see docs/INTERNALS.md, "Untrusted input".
import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, opendir, readlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

interface FileState {
  size: number;
  hash: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
}

export interface Snapshot {
  /** Path relative to its root, prefixed by the root's label: `home/notes.txt`. */
  files: ReadonlyMap<string, FileState>;
  /** Set when a bound stopped the walk: the snapshot is partial and a comparison must say so. */
  truncated?: string;
}

export interface SnapshotBounds {
  maxFiles: number;
  maxBytes: number;
  maxFileBytes: number;
  maxDepth: number;
}

export interface Change {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: FileState;
  after?: FileState;
}

const MiB = 1024 * 1024;

export const SNAPSHOT_BOUNDS: SnapshotBounds = {
  maxFiles: 5_000,
  maxBytes: 64 * MiB,
  maxFileBytes: 8 * MiB,
  maxDepth: 32,
};

/** One buffer per snapshot, reused for every file. */
const READ_CHUNK = 256 * 1024;
/** Names held at least before the largest are dropped, so a huge directory is sorted in batches. */
const NAME_BATCH = 1_024;
// O_NONBLOCK: a FIFO put in a regular file's place after lstat opens without waiting for a writer.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** A directory is opened, never followed, and read through its descriptor (`anchored`). */
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** The hash of an entry that is there but cannot be read (permissions, a name that is not UTF-8). */
const UNREADABLE = 'unreadable';
/** Never opened: FIFOs, sockets, devices. */
const OTHER: FileState = { kind: 'other', size: 0, hash: '' };
const DIR: FileState = { kind: 'dir', size: 0, hash: '' };

interface Walk {
  bounds: SnapshotBounds;
  files: Map<string, FileState>;
  reasons: Set<string>;
  bytesLeft: number;
  /** False once `maxBytes` is spent: every later file is its size only. */
  hashing: boolean;
  buffer: Buffer;
}

type Listing = { names: string[] } | { error: unknown };

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * An entry that vanished between its listing and its reading is left out, as if the walk had come a
 * moment later; one that is there but cannot be read is kind 'other', hash 'unreadable'.
 */
function failed(err: unknown, key: string, size: number): FileState | undefined {
  // A name that is not UTF-8 reached us decoded (U+FFFD) and names nothing: it is there, unreadable.
  if (codeOf(err) === 'ENOENT' && !key.includes('\uFFFD')) return undefined;
  return { kind: 'other', size, hash: UNREADABLE };
}

/** Sorted in place, cut to the `keep` first. */
function keepFirst(names: string[], keep: number): string[] {
  names.sort();
  if (names.length > keep) names.length = keep;
  return names;
}

/**
 * The `keep` first names in code-unit order, whatever the directory's own order, so a cut is the
 * same cut in every snapshot; memory stays bounded however many entries the server made.
 */
async function listFirst(dir: string, keep: number): Promise<Listing> {
  const names: string[] = [];
  try {
    for await (const entry of await opendir(dir)) {
      names.push(entry.name);
      if (names.length >= Math.max(2 * keep, NAME_BATCH)) keepFirst(names, keep);
    }
  } catch (error) {
    return { error };
  }
  return { names: keepFirst(names, keep) };
}

function sizeOnly(walk: Walk, size: number): FileState {
  walk.hashing = false;
  walk.reasons.add(`more than ${walk.bounds.maxBytes} bytes to hash`);
  return { kind: 'file', size, hash: `size:${size}` };
}

/** At most `maxFileBytes` of it: a longer file's hash says how much it covers. */
async function hashOpen(walk: Walk, handle: FileHandle, size: number): Promise<FileState> {
  const want = Math.min(size, walk.bounds.maxFileBytes);
  if (want > walk.bytesLeft) return sizeOnly(walk, size);
  const hash = createHash('sha256');
  let read = 0;
  while (read < want) {
    const length = Math.min(walk.buffer.length, want - read);
    const { bytesRead } = await handle.read(walk.buffer, 0, length, null);
    if (bytesRead === 0) break;
    hash.update(walk.buffer.subarray(0, bytesRead));
    read += bytesRead;
  }
  walk.bytesLeft -= read;
  const hex = hash.digest('hex');
  return { kind: 'file', size, hash: read === size ? hex : `first ${read} bytes:${hex}` };
}

async function fileState(walk: Walk, file: string, key: string, stat: Stats): Promise<FileState | undefined> {
  if (!walk.hashing) return sizeOnly(walk, stat.size);
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (err) {
    return failed(err, key, stat.size);
  }
  try {
    // Swapped since lstat: judged by what was opened.
    const opened = await handle.stat();
    return opened.isFile() ? await hashOpen(walk, handle, opened.size) : OTHER;
  } catch (err) {
    return failed(err, key, stat.size);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** A link is its target's text, never what it points to. */
async function linkState(file: string, key: string, stat: Stats): Promise<FileState | undefined> {
  try {
    const target = await readlink(file, { encoding: 'buffer' });
    return { kind: 'symlink', size: target.length, hash: sha256(target) };
  } catch (err) {
    return failed(err, key, stat.size);
  }
}

function setOrDrop(walk: Walk, key: string, state: FileState | undefined): void {
  if (state) walk.files.set(key, state);
  else walk.files.delete(key);
}

async function visitDir(walk: Walk, dir: string, key: string, depth: number): Promise<void> {
  walk.files.set(key, DIR);
  await anchored(dir, async (at) => {
    const deepest = depth >= walk.bounds.maxDepth;
    const listing = await listFirst(at, deepest ? 1 : walk.bounds.maxFiles - walk.files.size + 1);
    if ('error' in listing) return setOrDrop(walk, key, failed(listing.error, key, 0));
    if (!deepest) return walkEntries(walk, at, key, listing.names, depth + 1);
    if (listing.names.length > 0) walk.reasons.add(`deeper than ${walk.bounds.maxDepth} levels`);
  }).catch((err: unknown) => setOrDrop(walk, key, failed(err, key, 0)));
}

/**
 * The directory opened without following a link, then read through its descriptor: a server that
 * swaps it for a link to a host folder after lstat gets ELOOP or ENOTDIR, never a host listing.
 */
async function anchored<T>(dir: string, read: (at: string) => Promise<T>): Promise<T> {
  const handle = await open(dir, DIR_FLAGS);
  try {
    return await read(`/proc/self/fd/${handle.fd}`);
  } finally {
    await handle.close().catch(() => {});
  }
}

async function visit(walk: Walk, file: string, key: string, depth: number): Promise<void> {
  let stat: Stats;
  try {
    stat = await lstat(file);
  } catch (err) {
    return setOrDrop(walk, key, failed(err, key, 0));
  }
  if (stat.isDirectory()) return visitDir(walk, file, key, depth);
  if (stat.isSymbolicLink()) return setOrDrop(walk, key, await linkState(file, key, stat));
  if (stat.isFile()) return setOrDrop(walk, key, await fileState(walk, file, key, stat));
  walk.files.set(key, OTHER);
}

/** `depth`: the entries' own, 1 for a root's. */
async function walkEntries(walk: Walk, dir: string, key: string, names: string[], depth: number): Promise<void> {
  for (const name of names) {
    if (walk.files.size >= walk.bounds.maxFiles) {
      walk.reasons.add(`more than ${walk.bounds.maxFiles} files`);
      return;
    }
    // Names are kept as the server wrote them, control characters too: escaping is the renderer's.
    await visit(walk, path.join(dir, name), `${key}/${name}`, depth);
  }
}

/** Depth first in sorted order. A root's own path is the caller's and is read as given. */
export async function snapshot(
  roots: readonly { label: string; dir: string }[],
  bounds: SnapshotBounds = SNAPSHOT_BOUNDS,
): Promise<Snapshot> {
  const walk: Walk = {
    bounds,
    files: new Map(),
    reasons: new Set(),
    bytesLeft: bounds.maxBytes,
    hashing: true,
    buffer: Buffer.allocUnsafe(Math.max(1, Math.min(READ_CHUNK, bounds.maxFileBytes))),
  };
  for (const root of roots) {
    const listed = await anchored(root.dir, async (at) => {
      const listing = await listFirst(at, bounds.maxFiles - walk.files.size + 1);
      if ('names' in listing) await walkEntries(walk, at, root.label, listing.names, 1);
      return listing;
    }).catch((error: unknown) => ({ error }));
    if ('error' in listed && codeOf(listed.error) !== 'ENOENT') walk.reasons.add(`${root.label} could not be listed`);
  }
  return walk.reasons.size > 0 ? { files: walk.files, truncated: [...walk.reasons].join('; ') } : { files: walk.files };
}

/** The path itself or a directory above it is in the set. */
export function within(file: string, ignore: ReadonlySet<string>): boolean {
  if (ignore.size === 0) return false;
  if (ignore.has(file)) return true;
  for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1))
    if (ignore.has(file.slice(0, at))) return true;
  return false;
}

const differ = (a: FileState, b: FileState) => a.kind !== b.kind || a.size !== b.size || a.hash !== b.hash;

export function changesBetween(before: Snapshot, after: Snapshot, ignore: ReadonlySet<string> = new Set()): Change[] {
  const paths = [...new Set([...before.files.keys(), ...after.files.keys()])].sort();
  const changes: Change[] = [];
  for (const file of paths) {
    if (within(file, ignore)) continue;
    const was = before.files.get(file);
    const is = after.files.get(file);
    if (!was) changes.push({ path: file, change: 'added', after: is });
    else if (!is) changes.push({ path: file, change: 'removed', before: was });
    else if (differ(was, is)) changes.push({ path: file, change: 'changed', before: was, after: is });
  }
  return changes;
}
