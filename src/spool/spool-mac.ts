// Spool lines are MACed: a line planted in a cloned output folder could make any server look safe.
// The same key keeps secret launch values hashed into a target's key from being tried offline.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readBoundedSync } from '../io/read.js';

const KEY_FILE = 'spool.key';
const KEY_BYTES = 32;
/** Read without parsing the line. */
export const LINE_MAC_HEX = 64;
const SPACE = Buffer.from(' ');
const NEWLINE = Buffer.from('\n');

export class SpoolKey {
  private constructor(
    private readonly key: Buffer,
    /** Why the key is this run's alone: a spool it signs cannot be resumed. */
    readonly unkept?: string,
  ) {}

  /** A read-only HOME gets a key of this run alone: only `--resume` needs the kept one. */
  static of(cacheDir: string): SpoolKey {
    try {
      return SpoolKey.kept(cacheDir);
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      return new SpoolKey(randomBytes(KEY_BYTES), `${path.join(cacheDir, KEY_FILE)}: ${why}`);
    }
  }

  private static kept(cacheDir: string): SpoolKey {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const file = path.join(cacheDir, KEY_FILE);
    try {
      const fd = openSync(
        file,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      const key = randomBytes(KEY_BYTES);
      try {
        writeSync(fd, key.toString('hex'));
      } finally {
        closeSync(fd);
      }
      return new SpoolKey(key);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const read = readBoundedSync(file, { maxBytes: KEY_BYTES * 2, cut: true, noFollow: true });
    if ('error' in read)
      throw Object.assign(new Error(read.kind === 'not-a-file' ? `${file}: not a regular file` : read.error), {
        code: read.code,
      });
    const key = Buffer.from(read.bytes.toString('latin1'), 'hex');
    if (key.length !== KEY_BYTES) throw new Error(`${file}: not a spool key (${KEY_BYTES * 2} hex digits)`);
    return new SpoolKey(key);
  }

  mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('hex');
  }

  /** The MAC covers the spool's id (`''` for the header) and line number: a moved line is refused. */
  signLine(spool: string, line: number, json: string): Buffer {
    const payload = Buffer.from(json, 'utf8');
    const mac = Buffer.from(this.lineMac(spool, line, payload).toString('hex'), 'latin1');
    return Buffer.concat([mac, SPACE, payload, NEWLINE]);
  }

  /** Nothing of a planted line is parsed. */
  openLine(spool: string, line: number, raw: Buffer): Buffer | undefined {
    if (raw.length <= LINE_MAC_HEX || raw[LINE_MAC_HEX] !== SPACE[0]) return undefined;
    const payload = raw.subarray(LINE_MAC_HEX + 1);
    const want = Buffer.from(this.lineMac(spool, line, payload).toString('hex'), 'latin1');
    return timingSafeEqual(raw.subarray(0, LINE_MAC_HEX), want) ? payload : undefined;
  }

  /** Starts with words a target key's JSON cannot: the two MACs never meet. */
  private lineMac(spool: string, line: number, payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(`idemscan spool line\0${spool}\0${line}\0`).update(payload).digest();
  }
}
