/** A minimal bounded zip reader for `.mcpb`: every check runs on the central directory before a byte is written. */
// Each entry inflates with its declared size as its ceiling, so a lying header stops there.
import { inflateRawSync } from 'node:zlib';

export interface ZipLimits {
  maxEntries: number;
  /** The sum of every entry's unpacked size. */
  maxUnpackedBytes: number;
}

export interface ZipEntry {
  /** A relative path with `/` separators, checked (see entryNameProblem). */
  name: string;
  directory: boolean;
  executable: boolean;
  data: () => Buffer;
}

export class ZipError extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

/** Why a name may not be unpacked, or undefined: the zip-slip checks. */
export function entryNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 1024) return 'an empty or over-long name';
  if (name.includes('\0') || name.includes('\\')) return 'a NUL or a backslash in the name';
  if (name.startsWith('/') || /^[a-z]:/i.test(name)) return 'an absolute path';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..')) return 'a ".." segment (it would be written outside the bundle)';
  if (parts.some((p) => p === '' || p === '.')) return 'an empty or "." segment';
  return undefined;
}

/** The entries of a zip held in memory, each checked; throws a ZipError naming the first problem. */
export function readZip(buf: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = findEnd(buf);
  const count = buf.readUInt16LE(end + 10);
  const size = buf.readUInt32LE(end + 12);
  const offset = buf.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new ZipError('zip64 archives are not read');
  if (count > limits.maxEntries) throw new ZipError(`${count} entries, more than the ${limits.maxEntries} allowed`);
  if (offset + size > end) throw new ZipError('the central directory lies outside the file');
  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || buf.readUInt32LE(at) !== CENTRAL) throw new ZipError('a broken central directory');
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const packed = buf.readUInt32LE(at + 20);
    const unpacked = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const madeBy = buf.readUInt16LE(at + 4) >> 8;
    const mode = madeBy === 3 ? buf.readUInt32LE(at + 38) >>> 16 : 0; // 3: Unix, whose mode is in the high half
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    at += 46 + nameLen + extraLen + commentLen;
    const problem = entryNameProblem(name);
    if (problem) throw new ZipError(`entry ${JSON.stringify(name.slice(0, 200))}: ${problem}`);
    if ((mode & S_IFMT) === S_IFLNK)
      throw new ZipError(`entry ${JSON.stringify(name)}: a symbolic link (it could point outside the bundle)`);
    if (flags & 1) throw new ZipError(`entry ${JSON.stringify(name)}: encrypted`);
    if (method !== 0 && method !== 8)
      throw new ZipError(
        `entry ${JSON.stringify(name)}: compression method ${method} (only stored and deflated are read)`,
      );
    const key = name.replace(/\/$/, '');
    if (seen.has(key)) throw new ZipError(`entry ${JSON.stringify(name)}: given twice`);
    seen.add(key);
    total += unpacked;
    if (total > limits.maxUnpackedBytes) throw new ZipError(`unpacks to more than ${limits.maxUnpackedBytes} bytes`);
    const directory = name.endsWith('/') || (mode & S_IFMT) === S_IFDIR;
    entries.push({
      name: key,
      directory,
      executable: (mode & 0o111) !== 0,
      data: () => (directory ? Buffer.alloc(0) : entryData(buf, local, method, packed, unpacked, name)),
    });
  }
  return entries;
}

function findEnd(buf: Buffer): number {
  // The end record is 22 bytes plus a comment of at most 65,535.
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 65_535); at--) {
    if (buf.readUInt32LE(at) === EOCD) return at;
  }
  throw new ZipError('not a zip file (no end of central directory)');
}

function entryData(buf: Buffer, local: number, method: number, packed: number, unpacked: number, name: string): Buffer {
  if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL)
    throw new ZipError(`entry ${JSON.stringify(name)}: no local header`);
  const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
  if (start + packed > buf.length) throw new ZipError(`entry ${JSON.stringify(name)}: runs past the end of the file`);
  const raw = buf.subarray(start, start + packed);
  let data: Buffer;
  try {
    data = method === 0 ? Buffer.from(raw) : inflateRawSync(raw, { maxOutputLength: Math.max(1, unpacked) });
  } catch {
    throw new ZipError(`entry ${JSON.stringify(name)}: does not inflate to its declared ${unpacked} bytes`);
  }
  if (data.length !== unpacked)
    throw new ZipError(`entry ${JSON.stringify(name)}: ${data.length} bytes, not the declared ${unpacked}`);
  return data;
}
