/** An entry's files once pnpm has put them there, before it is published. */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  linkSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { storeFile } from './pnpm.js';

/**
 * Every file of an entry read-only: most are hard links to the store's, which every entry of that
 * package version shares, so a server run without --sandbox that writes its own files fails instead
 * of changing theirs (a guard for users other than root, whom file modes do not stop).
 *
 * With `cacheDir` (an entry that runs no install scripts), a file pnpm copied becomes a link to the
 * store's same file: pnpm copies every package that has install scripts, lest a build change the
 * store, and this entry builds nothing.
 */
export async function settleFiles(dir: string, cacheDir?: string): Promise<void> {
  const stack = [dir];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    // Synchronous calls a directory at a time: a tenth of the promise-per-file cost over an entry's
    // tens of thousands of files, and the event loop still turns between directories.
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const at = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(at);
      else if (entry.isFile()) settle(at, cacheDir);
    }
    await setImmediate();
  }
}

function settle(file: string, cacheDir: string | undefined): void {
  let stats = statSync(file);
  if (cacheDir && stats.nlink === 1) stats = linkedToStore(file, stats, cacheDir) ?? stats;
  // A file shared with an entry settled before needs no second chmod.
  if (stats.mode & 0o222) chmodSync(file, stats.mode & 0o555);
}

/** The store's file of the same content and kind, linked in the copy's place; undefined when the store has none. */
function linkedToStore(file: string, stats: Stats, cacheDir: string): Stats | undefined {
  const stored = storeFile(cacheDir, sha512(file), (stats.mode & 0o111) !== 0);
  try {
    const target = statSync(stored);
    if (target.size !== stats.size) return undefined;
    const temporary = `${file}.idemscan-link`;
    linkSync(stored, temporary);
    renameSync(temporary, file);
    return target;
  } catch {
    return undefined; // not in the store, or not linkable there: the copy stays
  }
}

function sha512(file: string): string {
  const hash = createHash('sha512');
  const chunk = Buffer.alloc(1024 * 1024);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
