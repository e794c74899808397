/** The one bounded file read (src/io/read.ts): regular files only, a size bound, no-follow, a time bound. In integration: it makes a FIFO with mkfifo. */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openRegularSync,
  readBounded,
  readBoundedSync,
  readBoundedText,
  readBoundedTextSync,
} from '../../src/io/read.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-io-read-'));
const file = path.join(dir, 'f.json');
writeFileSync(file, 'x'.repeat(1024));
const link = path.join(dir, 'link.json');
symlinkSync(file, link);
const fifo = path.join(dir, 'fifo');
execFileSync('mkfifo', [fifo]);

describe('readBoundedText and readBoundedTextSync', () => {
  it.each([
    ['async', (f: string, o: Parameters<typeof readBoundedTextSync>[1]) => readBoundedText(f, o)],
    ['sync', async (f: string, o: Parameters<typeof readBoundedTextSync>[1]) => readBoundedTextSync(f, o)],
  ])('%s: reads a file up to the bound, refuses one byte more, or keeps its head with cut', async (_, read) => {
    expect(await read(file, { maxBytes: 1024 })).toEqual({ text: 'x'.repeat(1024) });
    expect(await read(file, { maxBytes: 1023 })).toEqual({
      error: 'larger than 1023 bytes; not read',
      kind: 'too-large',
    });
    expect(await read(file, { maxBytes: 200, cut: true })).toEqual({ text: 'x'.repeat(200) });
    expect(await read(file, { maxBytes: 0, cut: true })).toEqual({ text: '' });
  });

  it.each([
    ['async', (f: string, o: Parameters<typeof readBoundedTextSync>[1]) => readBoundedText(f, o)],
    ['sync', async (f: string, o: Parameters<typeof readBoundedTextSync>[1]) => readBoundedTextSync(f, o)],
  ])('%s: a FIFO is refused without waiting for a writer; a link is followed unless noFollow', async (_, read) => {
    expect(await read(fifo, { maxBytes: 10 })).toEqual({
      error: 'not a regular file (a FIFO, socket or device); not read',
      kind: 'not-a-file',
    });
    // A directory is said as reading it would have said it.
    expect(await read(dir, { maxBytes: 10 })).toEqual({
      error: 'cannot read: is a directory (EISDIR)',
      kind: 'unreadable',
      code: 'EISDIR',
    });
    expect(await read(link, { maxBytes: 2048 })).toEqual({ text: 'x'.repeat(1024) });
    expect(await read(link, { maxBytes: 2048, noFollow: true })).toEqual({
      error: 'a symbolic link; not followed',
      kind: 'not-a-file',
      code: 'ELOOP',
    });
    // Only the last component: a link higher up the path is the user's own layout.
    symlinkSync(dir, path.join(dir, `up-${_}`));
    expect(await read(path.join(dir, `up-${_}`, 'f.json'), { maxBytes: 2048, noFollow: true })).toEqual({
      text: 'x'.repeat(1024),
    });
  });

  it('names why a file cannot be read, with its code', async () => {
    const missing = { error: 'cannot read: no such file (ENOENT)', kind: 'unreadable', code: 'ENOENT' };
    expect(await readBoundedText(path.join(dir, 'missing'), { maxBytes: 10 })).toEqual(missing);
    expect(readBoundedSync(path.join(dir, 'missing'), { maxBytes: 10 })).toEqual(missing);
  });

  it.runIf(existsSync('/dev/zero'))('an endless device is refused before a byte is read', async () => {
    expect(await readBoundedText('/dev/zero', { maxBytes: 2 * 1024 * 1024 })).toMatchObject({ kind: 'not-a-file' });
    expect(readBoundedSync('/dev/zero', { maxBytes: 2 * 1024 * 1024 })).toMatchObject({ kind: 'not-a-file' });
  });
});

describe('readBounded', () => {
  it('gives up when the signal has come, saying so', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await readBounded(file, { maxBytes: 2048, signal: stop.signal })).toEqual({
      error: 'cannot read: interrupted',
      kind: 'unreadable',
      code: 'ABORT_ERR',
    });
  });

  it('reads within a time bound, and keeps the bytes as they are (no UTF-8 round trip)', async () => {
    const binary = path.join(dir, 'binary');
    writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    const got = await readBounded(binary, { maxBytes: 4, timeoutMs: 60_000 });
    expect('bytes' in got && [...got.bytes]).toEqual([0xff, 0xfe, 0x00, 0x80]);
  });
});

describe('openRegularSync', () => {
  it('gives a descriptor of a regular file only', () => {
    const opened = openRegularSync(file, { noFollow: true });
    expect(opened).toHaveProperty('fd');
    if ('fd' in opened) closeSync(opened.fd);
    expect(openRegularSync(fifo)).toMatchObject({ kind: 'not-a-file' });
    expect(openRegularSync(link, { noFollow: true })).toMatchObject({ kind: 'not-a-file', code: 'ELOOP' });
  });
});
