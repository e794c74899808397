// `scan --resume`: anyone may have written the output folder, so each line's MAC is checked before parsing.
import { closeSync, readSync } from 'node:fs';
import { openRegularSync } from '../io/read.js';
import { parseJson, REPORT_DEPTH } from '../model/bounded-input.js';
import { InputError } from '../model/input-error.js';
import { DEFAULTS } from '../model/limits.js';
import { SPOOL_VERSION, SpoolHeader, SpoolLine } from '../model/spool-schema.js';
import { describeZodError } from '../model/zod-errors.js';
import type { SpoolKey } from './spool-mac.js';

/** Bigger than any server's escaped report may be. */
const MAX_LINE_BYTES = DEFAULTS.maxServerBytes * 2;
const CHUNK = 1024 * 1024;

const spoolError = (file: string, detail: string) => new InputError(`${file}: ${detail}`, { field: '--resume' });

export interface SpoolContents {
  header: SpoolHeader;
  /** Unknown fields dropped, as a saved report's are. */
  lines(): Generator<{ line: number; entry: SpoolLine }>;
  /** After `lines()` has run. */
  readonly truncated: boolean;
}

export function readSpool(file: string, key: SpoolKey): SpoolContents {
  const raw = rawLines(file);
  const first = raw.next();
  if (first.done) throw spoolError(file, 'empty: not a spool file');
  let header: SpoolHeader;
  try {
    header = readHeader(file, first.value.bytes, key);
  } catch (err) {
    raw.return(undefined); // closes the file
    throw err;
  }
  let truncated = false;
  return {
    header,
    get truncated() {
      return truncated;
    },
    *lines() {
      for (const { line, bytes, complete } of raw) {
        if (!complete) {
          truncated = true;
          return;
        }
        const entry = SpoolLine.safeParse(signed(file, line, bytes, key, header.spool));
        if (!entry.success) throw spoolError(file, `line ${line}: ${describeZodError('', entry.error)}`);
        yield { line, entry: entry.data };
      }
    },
  };
}

/** Undefined unless this machine's key signed it. */
export function readSpoolHeader(file: string, key: SpoolKey): SpoolHeader | undefined {
  try {
    const raw = rawLines(file);
    try {
      const first = raw.next();
      return first.done ? undefined : readHeader(file, first.value.bytes, key);
    } finally {
      raw.return(undefined); // closes the file
    }
  } catch {
    return undefined;
  }
}

function readHeader(file: string, bytes: Buffer, key: SpoolKey): SpoolHeader {
  if (bytes[0] === 0x7b)
    throw spoolError(
      file,
      'line 1: a spool of an older idemscan (spool format 1), which this one does not read back: scan again without --resume',
    );
  const doc = signed(file, 1, bytes, key, '');
  const version = (doc as { idemscanSpool?: unknown } | null)?.idemscanSpool;
  if (version !== SPOOL_VERSION)
    throw spoolError(
      file,
      `line 1: spool format ${String(version).slice(0, 20)}, this idemscan reads ${SPOOL_VERSION}: scan again without --resume`,
    );
  const header = SpoolHeader.safeParse(doc);
  if (!header.success) throw spoolError(file, `line 1: not a spool header: ${describeZodError('', header.error)}`);
  return header.data;
}

/** A planted line costs a read and a hash, never a parse. */
function signed(file: string, line: number, bytes: Buffer, key: SpoolKey, spool: string): unknown {
  const payload = key.openLine(spool, line, bytes);
  if (payload === undefined)
    throw spoolError(
      file,
      `line ${line}: not signed by this machine's spool key for this line of this spool (another machine or --cache-dir wrote it, it was edited, or it was moved from another spool or line): scan without --resume`,
    );
  const parsed = parseJson(payload.toString('utf8'), { maxBytes: MAX_LINE_BYTES, maxDepth: REPORT_DEPTH });
  if ('error' in parsed) throw spoolError(file, `line ${line}: not JSON idemscan wrote: ${parsed.error.slice(0, 200)}`);
  return parsed.value;
}

/** `complete` is false for a last line without its newline (killed while writing). */
function* rawLines(file: string): Generator<{ line: number; bytes: Buffer; complete: boolean }> {
  // Each line is read to its own bound, rather than the whole file to one.
  const opened = openRegularSync(file, { noFollow: true });
  if ('error' in opened) {
    if (opened.kind === 'not-a-file') throw spoolError(file, 'not a regular file: not a spool idemscan wrote');
    const missing = opened.code === 'ENOENT' ? ' (a scan interrupted with this --out leaves one)' : '';
    throw spoolError(file, `${opened.error}${missing}`);
  }
  const fd = opened.fd;
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let line = 0;
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl >= 0 && nl < n; nl = chunk.indexOf(10, start)) {
        pending.push(Buffer.from(chunk.subarray(start, nl)));
        line += 1;
        yield { line, bytes: Buffer.concat(pending), complete: true };
        pending = [];
        pendingBytes = 0;
        start = nl + 1;
      }
      pendingBytes += n - start;
      if (pendingBytes > MAX_LINE_BYTES)
        throw spoolError(file, `line ${line + 1}: longer than ${MAX_LINE_BYTES} bytes: not a line idemscan wrote`);
      pending.push(Buffer.from(chunk.subarray(start, n)));
    }
    if (pendingBytes > 0) yield { line: line + 1, bytes: Buffer.concat(pending), complete: false };
  } finally {
    closeSync(fd);
  }
}
