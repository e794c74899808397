/**
 * Every file idemscan writes: a new temporary file beside it renamed over it, so a planted symlink is
 * replaced, not followed, and no reader sees half a report. Paths are checked before a scan starts.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, rename, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../model/input-error.js';
import { idemscanCommand, shellWord } from '../model/invocation.js';
import type { Shown } from '../model/shown.js';
import { msg, show } from '../render/message.js';

/** Readable by all; the user's umask still applies. */
const MODE = 0o644;

/** A file's text, or a function that writes it in pieces (a report streamed from the spool). */
export type Content = string | ((out: (text: string) => void) => void);

export async function writeOutputFile(dest: string, data: Content): Promise<void> {
  if (typeof data !== 'string') {
    const file = PieceFile.open(dest);
    try {
      data((text) => file.write(text));
    } catch (err) {
      file.fail(err);
    }
    file.close();
    return;
  }
  const dir = path.dirname(path.resolve(dest));
  await mkdir(dir, { recursive: true });
  const tmp = tmpBeside(dest);
  try {
    // 'wx' is O_CREAT|O_EXCL: it fails on anything already there, a symlink included.
    const handle = await open(tmp, 'wx', MODE);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    await rename(tmp, dest);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

const tmpBeside = (dest: string) =>
  path.join(
    path.dirname(path.resolve(dest)),
    `.${path.basename(dest)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );

/** A failed write is thrown by `close`, not at the writer, so the other files of the same read go on. */
export class PieceFile {
  private pending: string[] = [];
  private size = 0;
  private error: { cause: unknown } | undefined;

  private constructor(
    private readonly dest: string,
    private readonly tmp: string,
    private readonly fd: number,
  ) {}

  static open(dest: string): PieceFile {
    mkdirSync(path.dirname(path.resolve(dest)), { recursive: true });
    const tmp = tmpBeside(dest);
    return new PieceFile(dest, tmp, openSync(tmp, 'wx', MODE));
  }

  write(text: string): void {
    if (this.error) return;
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= 1024 * 1024) this.flush();
  }

  /** Stops the file (a reporter that threw): `close` removes it and throws `err`. */
  fail(err: unknown): void {
    this.error ??= { cause: err };
  }

  close(): void {
    this.flush();
    try {
      closeSync(this.fd);
      if (this.error) throw this.error.cause;
      renameSync(this.tmp, this.dest);
    } catch (err) {
      try {
        unlinkSync(this.tmp);
      } catch {
        // already gone
      }
      throw err;
    }
  }

  private flush(): void {
    if (this.error) return;
    try {
      const data = Buffer.from(this.pending.join(''), 'utf8');
      for (let at = 0; at < data.length;) at += writeSync(this.fd, data, at);
    } catch (err) {
      this.error = { cause: err };
    }
    this.pending = [];
    this.size = 0;
  }
}

export async function checkOutputDir(option: string, dir: string, files: string[] = []): Promise<void> {
  const fail = (why: string) => new InputError(why, { field: option, file: dir });
  const existing = await stat(dir).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw fail('is not a directory');
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw fail(`cannot create the directory (${codeOf(err)})`);
  }
  for (const name of files) {
    const at = await lstat(path.join(dir, name)).catch(() => undefined);
    if (at?.isDirectory()) throw fail(`${name} there is a directory`);
  }
  await probe(dir).catch((err: unknown) => {
    throw fail(`cannot write there (${codeOf(err)})`);
  });
}

export async function checkOutputFile(option: string, file: string): Promise<void> {
  const fail = (why: string) => new InputError(why, { field: option, file });
  const at = await lstat(file).catch((err: NodeJS.ErrnoException) =>
    err.code === 'ENOENT' ? undefined : Promise.reject(fail(`cannot write (${codeOf(err)})`)),
  );
  if (at?.isDirectory()) throw fail('is a directory');
  const dir = path.dirname(path.resolve(file));
  try {
    await mkdir(dir, { recursive: true });
    await probe(dir);
  } catch (err) {
    throw fail(`cannot write (${codeOf(err)})`);
  }
}

/** Creates and removes a file in `dir`: the only test of writability that root and ACLs cannot fool. */
async function probe(dir: string): Promise<void> {
  const tmp = path.join(dir, `.idemscan-probe.${process.pid}.${randomBytes(6).toString('hex')}`);
  await (await open(tmp, 'wx', MODE)).close();
  await unlink(tmp);
}

/** Where a report goes when its path, checked before the scan, cannot be written after it. */
export async function writeFallback(fileName: string, data: Content): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'idemscan-report-'));
  const file = path.join(dir, fileName);
  await writeOutputFile(file, data);
  return file;
}

export function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? String(err);
}

/** http(s) only, so no viewer gets a `javascript:` link. */
export function checkRulesBaseUrl(url: string): void {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new InputError(msg`--rules-base-url: "${show.url(url)}" is not an http(s) URL`);
}

export function shownFile(dest: string): Shown {
  const rel = path.relative(process.cwd(), path.resolve(dest));
  return msg`${show.path(rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(dest))}`;
}

export function wroteLine(dest: string): Shown {
  return msg`wrote ${shownFile(dest)}`;
}

export function toolsCommandFor(reportFile: string): string {
  return idemscanCommand(`report ${shellWord(shownFile(reportFile).text)} --format tools`);
}
