/**
 * Every line of a spool starts with an HMAC-SHA256 under a key of this machine's cache
 * (`<cache>/spool.key`, 32 random bytes, mode 0600) that binds it to its spool and its line, and
 * `--resume` reads back only lines whose MAC holds, checked before anything of the line is parsed.
 * The spool sits in an output folder a cloned repository or a colleague may have filled: its shape
 * could be checked, but not whether idemscan scanned what it says, and a planted line
 * could make any server look safe. The same key makes each target's key (its launch recipe,
 * values included) unguessable from the spool, so a secret value hashed into it cannot be tried
 * offline by whoever reads the file.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readBoundedSync } from '../io/read.js';

const KEY_FILE = 'spool.key';
const KEY_BYTES = 32;
/** A spool line starts with its MAC in this many hex digits, then a space: read without parsing the line. */
export const LINE_MAC_HEX = 64;
const SPACE = Buffer.from(' ');
const NEWLINE = Buffer.from('\n');

export class SpoolKey {
  private constructor(
    private readonly key: Buffer,
    /** Why the key is this run's alone (no cache to keep it in): a spool it signs cannot be resumed. */
    readonly unkept?: string,
  ) {}

  /**
   * The key of `cacheDir`, made on first use; where it can be neither read nor made (a read-only
   * HOME), a key of this run alone, so the scan goes on: only `--resume` needs the kept one.
   */
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
    // Its first KEY_BYTES * 2 bytes: the hex digits idemscan wrote.
    const read = readBoundedSync(file, { maxBytes: KEY_BYTES * 2, cut: true, noFollow: true });
    if ('error' in read)
      throw Object.assign(new Error(read.kind === 'not-a-file' ? `${file}: not a regular file` : read.error), {
        code: read.code,
      });
    const key = Buffer.from(read.bytes.toString('latin1'), 'hex');
    if (key.length !== KEY_BYTES) throw new Error(`${file}: not a spool key (${KEY_BYTES * 2} hex digits)`);
    return new SpoolKey(key);
  }

  /** The key's MAC of `text` (a target's key: spool-run.ts). */
  mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('hex');
  }

  /**
   * Line `line` of the spool `spool` as written: its MAC in hex, a space, the JSON, a newline. The
   * MAC covers the spool's id (`''` for the header, line 1, which holds the id), the line's number
   * and the JSON's bytes, so a line is good only where it was written: one moved from another
   * spool (one scanned with other options, or by another version), to another line, or reordered,
   * is refused.
   */
  signLine(spool: string, line: number, json: string): Buffer {
    const payload = Buffer.from(json, 'utf8');
    const mac = Buffer.from(this.lineMac(spool, line, payload).toString('hex'), 'latin1');
    return Buffer.concat([mac, SPACE, payload, NEWLINE]);
  }

  /**
   * The JSON's bytes of a line as read (without its newline) when its MAC is this key's for that
   * spool and line, else undefined. Only the fixed-width prefix is read before the MAC is checked:
   * nothing of a planted line is parsed.
   */
  openLine(spool: string, line: number, raw: Buffer): Buffer | undefined {
    if (raw.length <= LINE_MAC_HEX || raw[LINE_MAC_HEX] !== SPACE[0]) return undefined;
    const payload = raw.subarray(LINE_MAC_HEX + 1);
    const want = Buffer.from(this.lineMac(spool, line, payload).toString('hex'), 'latin1');
    return timingSafeEqual(raw.subarray(0, LINE_MAC_HEX), want) ? payload : undefined;
  }

  /** Its text starts with words a target key's JSON cannot start with: the two MACs never meet. */
  private lineMac(spool: string, line: number, payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(`idemscan spool line\0${spool}\0${line}\0`).update(payload).digest();
  }
}
