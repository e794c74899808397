/**
 * Every line of a spool carries an HMAC-SHA256 under a key of this machine's cache
 * (`<cache>/spool.key`, 32 random bytes, mode 0600), and `--resume` reads back only lines whose MAC
 * holds. The spool sits in an output folder a cloned repository or a colleague may have filled:
 * its shape could be checked, but not whether idemscan scanned what it says, and a planted line
 * could make any server look safe. The same key makes each target's key (its launch recipe,
 * values included) unguessable from the spool, so a secret value hashed into it cannot be tried
 * offline by whoever reads the file.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'spool.key';
const KEY_BYTES = 32;

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
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) throw new Error(`${file}: not a regular file`);
      const text = Buffer.alloc(KEY_BYTES * 2);
      const n = readSync(fd, text);
      const key = Buffer.from(text.subarray(0, n).toString('latin1'), 'hex');
      if (key.length !== KEY_BYTES) throw new Error(`${file}: not a spool key (${KEY_BYTES * 2} hex digits)`);
      return new SpoolKey(key);
    } finally {
      closeSync(fd);
    }
  }

  mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('hex');
  }

  /** `{...}` with `"mac"` added last, over the JSON without it. */
  sign(json: string): string {
    return `${json.slice(0, -1)},"mac":"${this.mac(json)}"}`;
  }

  /** The object without its `mac`, when the MAC is this key's over it; undefined otherwise. */
  verify(doc: unknown): Record<string, unknown> | undefined {
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
    const { mac, ...rest } = doc as Record<string, unknown>;
    if (typeof mac !== 'string' || mac.length !== 64) return undefined;
    const want = Buffer.from(this.mac(JSON.stringify(rest)), 'hex');
    const got = Buffer.from(mac, 'hex');
    return got.length === want.length && timingSafeEqual(got, want) ? rest : undefined;
  }
}
