// Synchronous, so a finished server is on disk whatever signal comes; a failed write falls back to memory.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { ServerReport } from '../model/schema.js';
import { SPOOL_VERSION, type SpoolHeader, type SpoolStart } from '../model/spool-schema.js';
import type { ServerSink } from './sink.js';
import { LINE_MAC_HEX, type SpoolKey } from './spool-mac.js';

const PREFIX = LINE_MAC_HEX + 1;

export class FileSpool implements ServerSink {
  private end = 0;
  /** The header included. */
  private written = 0;
  private readonly lines = new Map<number, { at: number; length: number }>();
  /** Every line after a write failed. */
  private readonly held = new Map<number, string>();
  private closed = false;
  /** The first write error. */
  failure?: string;

  private constructor(
    readonly file: string,
    private readonly fd: number,
    /** What `--resume` matches on. */
    private readonly keyOf: (position: number) => string,
    private readonly key: SpoolKey,
    /** Each line's MAC covers it: no line of another spool reads as one of this. */
    private readonly id: string,
  ) {}

  /** Unlinked, then created exclusively: a symlink planted at the name is replaced, never followed. */
  static create(file: string, start: SpoolStart, keyOf: (position: number) => string, key: SpoolKey): FileSpool {
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return FileSpool.onDescriptor(file, openSync(file, 'wx+', 0o600), start, keyOf, key);
  }

  static onDescriptor(
    file: string,
    fd: number,
    start: SpoolStart,
    keyOf: (position: number) => string,
    key: SpoolKey,
  ): FileSpool {
    const id = randomBytes(16).toString('hex');
    // Nothing else of a resumed spool's header is carried over.
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

  /** Also a line `--resume` read back and checked, signed anew. */
  addLine(position: number, json: string): void {
    const at = this.end;
    const line = this.key.signLine(this.id, this.written + 1, json);
    if (this.tryAppend(line)) this.lines.set(position, { at: at + PREFIX, length: line.length - PREFIX - 1 });
    else this.held.set(position, json);
  }

  get size(): number {
    return this.lines.size + this.held.size;
  }

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

  /** A resumed spool is built beside the old one, then replaces it. */
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

  /** Only after every report file is written. */
  remove(): void {
    this.close();
    try {
      unlinkSync(this.file);
    } catch {
      // Already gone: the reports hold every server.
    }
  }

  /** False once any write has failed: a line after a gap would read back as garbage. */
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
