/**
 * The one reader of files: target files and client configs, saved reports, plans, profiles, and the
 * files of idemscan's cache (a server run without --sandbox can rewrite those, so they are read the
 * same way). A path may name a huge file, /dev/zero, a FIFO or a terminal (a cloned repository's
 * `.cursor/mcp.json` can be either, or a link to one): only a regular file is read, opened
 * non-blocking so that opening a FIFO does not wait, and never more than `maxBytes` of it. Options:
 * `noFollow` refuses a symbolic link as the last component, for files only idemscan writes; a time
 * bound and an abort signal for the async reader. Failures are values. JSON is parsed by
 * model/bounded-input.ts `parseJson` (bytes and depth), which is pure and used by model itself.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { fileErrorWords } from '../model/error-words.js';

export interface ReadOptions {
  /** Bytes read at most: past them the file is refused, or with `cut` its first `maxBytes` kept. */
  maxBytes: number;
  /** Keep a file's head (the first `maxBytes`) instead of refusing a longer file. */
  cut?: boolean;
  /** A symbolic link as the last component is refused, not followed (O_NOFOLLOW). */
  noFollow?: boolean;
}

export interface AsyncReadOptions extends ReadOptions {
  /** Given up after this long: a file on a mount that stopped answering. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Why a file was not read; `code` is the system's (ENOENT) when it could not be, `ETIMEDOUT` past
 * the time bound and `ABORT_ERR` when the signal came.
 */
export type ReadFailure = { error: string; kind: 'too-large' | 'unreadable' | 'not-a-file'; code?: string };
export type ReadBytes = { bytes: Buffer } | ReadFailure;
export type ReadResult = { text: string } | ReadFailure;

const CHUNK = 1024 * 1024;
/** The read after a file's whole size, which finds the end (or that it grew). */
const PROBE = 4096;

const sizeWords = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

const flagsOf = (opts: { noFollow?: boolean }) =>
  constants.O_RDONLY | constants.O_NONBLOCK | (opts.noFollow ? constants.O_NOFOLLOW : 0);

const tooLarge = (maxBytes: number): ReadFailure => ({
  error: `larger than ${sizeWords(maxBytes)}; not read`,
  kind: 'too-large',
});

function notAFile(stat: Stats): ReadFailure {
  // A directory is said as reading it would have said it.
  if (stat.isDirectory())
    return { error: `cannot read: ${fileErrorWords({ code: 'EISDIR' })}`, kind: 'unreadable', code: 'EISDIR' };
  return { error: 'not a regular file (a FIFO, socket or device); not read', kind: 'not-a-file' };
}

function failure(err: unknown, opts: Omit<AsyncReadOptions, 'maxBytes'>): ReadFailure {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  // O_NOFOLLOW on a symbolic link fails with ELOOP ("too many symbolic links", which it is not).
  if (opts.noFollow && code === 'ELOOP') return { error: 'a symbolic link; not followed', kind: 'not-a-file', code };
  if ((err as Error | undefined)?.name === 'TimeoutError')
    return { error: `cannot read: no answer within ${opts.timeoutMs} ms`, kind: 'unreadable', code: 'ETIMEDOUT' };
  if ((err as Error | undefined)?.name === 'AbortError' || opts.signal?.aborted)
    return { error: 'cannot read: interrupted', kind: 'unreadable', code: 'ABORT_ERR' };
  return { error: `cannot read: ${fileErrorWords(err)}`, kind: 'unreadable', ...(code ? { code } : {}) };
}

/** `p`, or the stop signal's reason if it comes first (the operation itself runs on). */
function until<T>(p: Promise<T>, stop: AbortSignal | undefined): Promise<T> {
  if (!stop) return p;
  if (stop.aborted) return Promise.reject(stop.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stop.reason as Error);
    stop.addEventListener('abort', onStop, { once: true });
    p.then(resolve, reject).finally(() => stop.removeEventListener('abort', onStop));
  });
}

function stopOf(opts: AsyncReadOptions): AbortSignal | undefined {
  const signals = [
    ...(opts.timeoutMs !== undefined ? [AbortSignal.timeout(opts.timeoutMs)] : []),
    ...(opts.signal ? [opts.signal] : []),
  ];
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

/** The chunks of one read, and what it comes to once a chunk passes the bound or the file ends. */
class Gathered {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  constructor(private readonly opts: ReadOptions) {}

  /**
   * The buffer of the next read: the first as large as the file said it was (one allocation and
   * no copy for a file that stays as it was: a 19 MB lock file read in 1 MiB chunks and joined left
   * the allocator holding twice its size), then a MiB; never more than one byte past the bound.
   */
  buffer(size?: number): Buffer {
    // After a read of the whole size, one that finds the end: small, so that no large block is
    // freed (glibc would raise its mmap threshold to that block's size, and keep more memory).
    const want = size === undefined ? CHUNK : this.total === 0 ? size + 1 : this.total === size ? PROBE : CHUNK;
    return Buffer.allocUnsafe(Math.max(1, Math.min(want, this.opts.maxBytes + 1 - this.total)));
  }

  /** After `n` bytes were read into `buffer`: the result when the read is over. */
  took(buffer: Buffer, n: number): ReadBytes | undefined {
    if (n === 0) return { bytes: this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks) };
    this.chunks.push(buffer.subarray(0, n));
    this.total += n;
    if (this.total <= this.opts.maxBytes) return undefined;
    return this.opts.cut
      ? { bytes: Buffer.concat(this.chunks).subarray(0, this.opts.maxBytes) }
      : tooLarge(this.opts.maxBytes);
  }
}

/** A regular file's bytes, up to the bound. */
export async function readBounded(file: string, opts: AsyncReadOptions): Promise<ReadBytes> {
  const stop = stopOf(opts);
  const opening = open(file, flagsOf(opts));
  let handle: FileHandle;
  try {
    handle = await until(opening, stop);
  } catch (err) {
    // Given up before the open finished: the file is closed once it has opened.
    if (stop?.aborted) void opening.then((h) => h.close()).catch(() => {});
    return failure(err, opts);
  }
  let pending: Promise<unknown> = Promise.resolve();
  const step = <T>(p: Promise<T>): Promise<T> => until((pending = p), stop);
  try {
    const stat = await step(handle.stat());
    if (!stat.isFile()) return notAFile(stat);
    for (const gathered = new Gathered(opts); ;) {
      const buffer = gathered.buffer(stat.size);
      const done = gathered.took(buffer, (await step(handle.read(buffer, 0, buffer.length, null))).bytesRead);
      if (done) return done;
    }
  } catch (err) {
    return failure(err, opts);
  } finally {
    // Past the time bound a read may still be under way: the file is closed when it returns.
    const closing = pending.then(
      () => handle.close(),
      () => handle.close(),
    );
    if (stop?.aborted) void closing.catch(() => {});
    else await closing.catch(() => {});
  }
}

/** A regular file's text (UTF-8), up to the bound. */
export async function readBoundedText(file: string, opts: AsyncReadOptions): Promise<ReadResult> {
  const got = await readBounded(file, opts);
  return 'bytes' in got ? { text: got.bytes.toString('utf8') } : got;
}

/**
 * A regular file opened for reading, or why not: for readers of their own (the spool's lines).
 * The caller closes `fd`.
 */
export function openRegularSync(file: string, opts: { noFollow?: boolean } = {}): { fd: number } | ReadFailure {
  let fd: number;
  try {
    fd = openSync(file, flagsOf(opts));
  } catch (err) {
    return failure(err, opts);
  }
  const stat = fstatSync(fd);
  if (stat.isFile()) return { fd };
  closeSync(fd);
  return notAFile(stat);
}

/** readBounded for synchronous callers (the token store, the era memo), without the time bound they cannot have. */
export function readBoundedSync(file: string, opts: ReadOptions): ReadBytes {
  const opened = openRegularSync(file, opts);
  if ('error' in opened) return opened;
  try {
    for (const gathered = new Gathered(opts); ;) {
      const buffer = gathered.buffer();
      const done = gathered.took(buffer, readSync(opened.fd, buffer, 0, buffer.length, null));
      if (done) return done;
    }
  } catch (err) {
    return failure(err, opts);
  } finally {
    closeSync(opened.fd);
  }
}

/** readBoundedSync's text (UTF-8). */
export function readBoundedTextSync(file: string, opts: ReadOptions): ReadResult {
  const got = readBoundedSync(file, opts);
  return 'bytes' in got ? { text: got.bytes.toString('utf8') } : got;
}
