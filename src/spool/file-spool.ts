/**
 * The spool file: NDJSON, a header line then one `{key, server}` line per finished server, appended
 * as each finishes (model/spool-schema.ts). Only the offset of each line is kept in memory (16
 * bytes a server), so reading the servers back in list order is one positioned read each.
 * Synchronous writes: a line is a few kilobytes, and a server that finished is on disk before the
 * next one is counted, whatever signal comes. A write that fails (ENOSPC, EFBIG, EIO) must not
 * lose the scan: from then on the servers are kept in memory, as before the spool, and `failure`
 * says why (the CLI warns, and keeps the file).
 */
import { closeSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { ServerReport } from '../model/schema.js';
import type { SpoolHeader } from '../model/spool-schema.js';
import type { ServerSink } from './sink.js';
import type { SpoolKey } from './spool-mac.js';

export class FileSpool implements ServerSink {
  private end = 0;
  private readonly lines = new Map<number, { at: number; length: number }>();
  /** Lines not on disk: every line after a write failed. */
  private readonly held = new Map<number, string>();
  private closed = false;
  /** Why the spool stopped being written (the first error), if it did. */
  failure?: string;

  private constructor(
    readonly file: string,
    private readonly fd: number,
    /** A digest of each position's target, written with its server (what `--resume` matches on). */
    private readonly keyOf: (position: number) => string,
    /** Signs each line (spool-mac.ts): `--resume` reads back only what this machine's idemscan wrote. */
    private readonly key: SpoolKey,
  ) {}

  /**
   * A new spool at `file`, replacing one there. Unlinked first and created exclusively ('wx+'), so a
   * symlink planted at the name is replaced, never followed; private (0600), as the report's tmp files.
   */
  static create(file: string, header: SpoolHeader, keyOf: (position: number) => string, key: SpoolKey): FileSpool {
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return FileSpool.onDescriptor(file, openSync(file, 'wx+', 0o600), header, keyOf, key);
  }

  /** A spool on an open descriptor (create's, or a test's). */
  static onDescriptor(
    file: string,
    fd: number,
    header: SpoolHeader,
    keyOf: (position: number) => string,
    key: SpoolKey,
  ): FileSpool {
    const spool = new FileSpool(file, fd, keyOf, key);
    spool.tryAppend(key.sign(JSON.stringify(header)));
    return spool;
  }

  add(position: number, server: ServerReport): void {
    this.addLine(position, JSON.stringify({ key: this.keyOf(position), server }));
  }

  /** A line read back from an earlier spool (`--resume`), checked and written anew, at its new position. */
  addLine(position: number, json: string): void {
    const at = this.end;
    const length = this.tryAppend(this.key.sign(json));
    if (length === undefined) this.held.set(position, json);
    else this.lines.set(position, { at, length });
  }

  get size(): number {
    return this.lines.size + this.held.size;
  }

  /** Servers kept in memory only, since a write failed. */
  get inMemory(): number {
    return this.held.size;
  }

  *servers(): Generator<ServerReport> {
    const positions = [...this.lines.keys(), ...this.held.keys()].sort((a, b) => a - b);
    for (const p of positions) {
      const kept = this.held.get(p);
      if (kept !== undefined) {
        yield (JSON.parse(kept) as { server: ServerReport }).server;
        continue;
      }
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
    const moved = new FileSpool(file, this.fd, this.keyOf, this.key);
    moved.end = this.end;
    moved.failure = this.failure;
    for (const [p, l] of this.lines) moved.lines.set(p, l);
    for (const [p, l] of this.held) moved.held.set(p, l);
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

  /**
   * Writes a line at the end; the bytes written, without the newline, or undefined once a write has
   * failed (this one or an earlier one: a line after a gap would be read back as garbage).
   */
  private tryAppend(json: string): number | undefined {
    if (this.failure !== undefined) return undefined;
    const data = Buffer.from(`${json}\n`, 'utf8');
    try {
      let written = 0;
      while (written < data.length)
        written += writeSync(this.fd, data, written, data.length - written, this.end + written);
    } catch (err) {
      this.failure = (err as NodeJS.ErrnoException).code ?? String(err);
      return undefined;
    }
    this.end += data.length;
    return data.length - 1;
  }
}

function fail(file: string): never {
  throw new Error(`${file}: the spool file was cut short while the scan ran`);
}
