/**
 * The spool file: NDJSON, a header line then one `{key, server}` line per finished server, appended
 * as each finishes (model/spool-schema.ts). Only the offset of each line is kept in memory (16
 * bytes a server), so reading the servers back in list order is one positioned read each.
 * Synchronous writes: a line is a few kilobytes, and a server that finished is on disk before the
 * next one is counted, whatever signal comes.
 */
import { closeSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { ServerReport } from '../model/schema.js';
import type { SpoolHeader } from '../model/spool-schema.js';
import type { ServerSink } from './sink.js';

export class FileSpool implements ServerSink {
  private end = 0;
  private readonly lines = new Map<number, { at: number; length: number }>();
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly fd: number,
    /** A digest of each position's target, written with its server (what `--resume` matches on). */
    private readonly keyOf: (position: number) => string,
  ) {}

  /**
   * A new spool at `file`, replacing one there. Unlinked first and created exclusively ('wx+'), so a
   * symlink planted at the name is replaced, never followed; private (0600), as the report's tmp files.
   */
  static create(file: string, header: SpoolHeader, keyOf: (position: number) => string): FileSpool {
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const spool = new FileSpool(file, openSync(file, 'wx+', 0o600), keyOf);
    spool.append(JSON.stringify(header));
    return spool;
  }

  add(position: number, server: ServerReport): void {
    this.addLine(position, JSON.stringify({ key: this.keyOf(position), server }));
  }

  /** A line read back from an earlier spool (`--resume`), checked and written anew, at its new position. */
  addLine(position: number, json: string): void {
    const at = this.end;
    const length = this.append(json);
    this.lines.set(position, { at, length });
  }

  get size(): number {
    return this.lines.size;
  }

  *servers(): Generator<ServerReport> {
    const positions = [...this.lines.keys()].sort((a, b) => a - b);
    for (const p of positions) {
      const { at, length } = this.lines.get(p)!;
      const buffer = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) read += readSync(this.fd, buffer, read, length - read, at + read) || fail(this.file);
      // Written by this process a moment ago: parsed, not checked again.
      yield (JSON.parse(buffer.toString('utf8')) as { server: ServerReport }).server;
    }
  }

  /** Moves the spool to `file` (a resumed spool is built beside the old one, then replaces it). */
  moveTo(file: string): FileSpool {
    renameSync(this.file, file);
    const moved = new FileSpool(file, this.fd, this.keyOf);
    moved.end = this.end;
    for (const [p, l] of this.lines) moved.lines.set(p, l);
    this.closed = true;
    return moved;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** After every report file is written: the spool's servers are all in them. */
  remove(): void {
    this.close();
    try {
      unlinkSync(this.file);
    } catch {
      // Already gone (removed by hand): nothing is lost, the reports hold every server.
    }
  }

  /** Writes a line at the end; the bytes written, without the newline. */
  private append(json: string): number {
    const data = Buffer.from(`${json}\n`, 'utf8');
    let written = 0;
    while (written < data.length)
      written += writeSync(this.fd, data, written, data.length - written, this.end + written);
    this.end += data.length;
    return data.length - 1;
  }
}

function fail(file: string): never {
  throw new Error(`${file}: the spool file was cut short while the scan ran`);
}
