/**
 * The spool file: a header line then one `{key, server}` line per finished server, appended as each
 * finishes, each line its MAC then its JSON (model/spool-schema.ts). Only the offset of each line's
 * JSON is kept in memory (16 bytes a server), so reading the servers back in list order is one
 * positioned read each.
 * Synchronous writes: a line is a few kilobytes, and a server that finished is on disk before the
 * next one is counted, whatever signal comes. A write that fails (ENOSPC, EFBIG, EIO) must not
 * lose the scan: from then on the servers are kept in memory, as before the spool, and `failure`
 * says why (the CLI warns, and keeps the file).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { ServerReport } from '../model/schema.js';
import { SPOOL_VERSION, type SpoolHeader, type SpoolStart } from '../model/spool-schema.js';
import type { ServerSink } from './sink.js';
import { LINE_MAC_HEX, type SpoolKey } from './spool-mac.js';

/** The bytes before a line's JSON: its MAC and a space. */
const PREFIX = LINE_MAC_HEX + 1;

export class FileSpool implements ServerSink {
  private end = 0;
  /** Lines written, the header included: the next one's number is this plus one. */
  private written = 0;
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
    /** The header's random id, which each line's MAC covers: no line of another spool reads as one of this. */
    private readonly id: string,
  ) {}

  /**
   * A new spool at `file`, replacing one there. Unlinked first and created exclusively ('wx+'), so a
   * symlink planted at the name is replaced, never followed; private (0600), as the report's tmp files.
   * Each spool gets an id of its own, a resumed one too: lines are never carried over by their MACs.
   */
  static create(file: string, start: SpoolStart, keyOf: (position: number) => string, key: SpoolKey): FileSpool {
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return FileSpool.onDescriptor(file, openSync(file, 'wx+', 0o600), start, keyOf, key);
  }

  /** A spool on an open descriptor (create's, or a test's). */
  static onDescriptor(
    file: string,
    fd: number,
    start: SpoolStart,
    keyOf: (position: number) => string,
    key: SpoolKey,
  ): FileSpool {
    const id = randomBytes(16).toString('hex');
    // Field by field: nothing else of a resumed spool's header is written into the new one.
    const header: SpoolHeader = {
      idemscanSpool: SPOOL_VERSION,
      spool: id,
      schemaVersion: start.schemaVersion,
      startedAt: start.startedAt,
      run: start.run,
      ...(start.writer ? { writer: start.writer } : {}),
    };
    const spool = new FileSpool(file, fd, keyOf, key, id);
    // The header's MAC is made without the id it holds: read first, it gives the id the rest is checked with.
    spool.tryAppend(key.signLine('', 1, JSON.stringify(header)));
    return spool;
  }

  add(position: number, server: ServerReport): void {
    this.addLine(position, JSON.stringify({ key: this.keyOf(position), server }));
  }

  /** A line read back from an earlier spool (`--resume`), checked and written anew, at its new position. */
  addLine(position: number, json: string): void {
    const at = this.end;
    const line = this.key.signLine(this.id, this.written + 1, json);
    if (this.tryAppend(line)) this.lines.set(position, { at: at + PREFIX, length: line.length - PREFIX - 1 });
    else this.held.set(position, json);
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
    const moved = new FileSpool(file, this.fd, this.keyOf, this.key, this.id);
    moved.end = this.end;
    moved.written = this.written;
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
   * Writes a line at the end; false once a write has failed (this one or an earlier one: a line after
   * a gap would be read back as garbage).
   */
  private tryAppend(data: Buffer): boolean {
    if (this.failure !== undefined) return false;
    try {
      let written = 0;
      while (written < data.length)
        written += writeSync(this.fd, data, written, data.length - written, this.end + written);
    } catch (err) {
      this.failure = (err as NodeJS.ErrnoException).code ?? String(err);
      return false;
    }
    this.end += data.length;
    this.written += 1;
    return true;
  }
}

function fail(file: string): never {
  throw new Error(`${file}: the spool file was cut short while the scan ran`);
}
