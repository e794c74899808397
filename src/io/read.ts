// A path may name /dev/zero, a FIFO or a link to one: bounds in docs/INTERNALS.md, "Untrusted input".
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { fileErrorWords } from '../model/error-words.js';

export interface ReadOptions {
  maxBytes: number;
  /** Keep the first `maxBytes` instead of refusing a longer file. */
  cut?: boolean;
  /** For files only idemscan writes: a server run without --sandbox could link them elsewhere. */
  noFollow?: boolean;
}

export interface AsyncReadOptions extends ReadOptions {
  /** For a mount that stopped answering. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** `code`: the system's (ENOENT), `ETIMEDOUT` past the time bound, `ABORT_ERR` on the signal. */
export type ReadFailure = { error: string; kind: 'too-large' | 'unreadable' | 'not-a-file'; code?: string };
export type ReadBytes = { bytes: Buffer } | ReadFailure;
export type ReadResult = { text: string } | ReadFailure;

const CHUNK = 1024 * 1024;
/** The read after a file's whole size, which finds the end or that it grew. */
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

/** The operation itself runs on after the stop. */
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

class Gathered {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  constructor(private readonly opts: ReadOptions) {}

  /** The first read is the file's whole size: joined chunks left the allocator holding twice it. */
  buffer(size?: number): Buffer {
    // The end-finding read is small: freeing a large block raises glibc's mmap threshold.
    const want = size === undefined ? CHUNK : this.total === 0 ? size + 1 : this.total === size ? PROBE : CHUNK;
    return Buffer.allocUnsafe(Math.max(1, Math.min(want, this.opts.maxBytes + 1 - this.total)));
  }

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

export async function readBounded(file: string, opts: AsyncReadOptions): Promise<ReadBytes> {
  const stop = stopOf(opts);
  const opening = open(file, flagsOf(opts));
  let handle: FileHandle;
  try {
    handle = await until(opening, stop);
  } catch (err) {
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
    // Past the time bound a read may still be under way.
    const closing = pending.then(
      () => handle.close(),
      () => handle.close(),
    );
    if (stop?.aborted) void closing.catch(() => {});
    else await closing.catch(() => {});
  }
}

export async function readBoundedText(file: string, opts: AsyncReadOptions): Promise<ReadResult> {
  const got = await readBounded(file, opts);
  return 'bytes' in got ? { text: got.bytes.toString('utf8') } : got;
}

/** The caller closes `fd`. */
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

export function readBoundedTextSync(file: string, opts: ReadOptions): ReadResult {
  const got = readBoundedSync(file, opts);
  return 'bytes' in got ? { text: got.bytes.toString('utf8') } : got;
}
