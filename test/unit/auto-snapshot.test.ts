/**
 * The snapshots `probe --auto` compares around a call (src/probe/auto/snapshot.ts), on directories a
 * hostile server could have left. A FIFO needs mkfifo, a process: here a device stands for it.
 */
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changesBetween, snapshot, SNAPSHOT_BOUNDS, type SnapshotBounds } from '../../src/probe/auto/snapshot.js';

const MiB = 1024 * 1024;
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const isRoot = process.getuid?.() === 0;
const hasDevZero = existsSync('/dev/zero') && lstatSync('/dev/zero').isCharacterDevice();

let dir: string;
const at = (...parts: string[]) => path.join(dir, ...parts);
const snap = (bounds?: SnapshotBounds) => snapshot([{ label: 'home', dir }], bounds);
const bounded = (over: Partial<SnapshotBounds>) => ({ ...SNAPSHOT_BOUNDS, ...over });

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-snap-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('snapshot', () => {
  it('records files, directories and their contents by size and hash', async () => {
    writeFileSync(at('notes.txt'), 'hello');
    mkdirSync(at('sub'));
    writeFileSync(at('sub', 'a'), '');
    const got = await snap();
    expect(got.truncated).toBeUndefined();
    expect([...got.files]).toEqual([
      ['home/notes.txt', { kind: 'file', size: 5, hash: sha('hello') }],
      ['home/sub', { kind: 'dir', size: 0, hash: '' }],
      ['home/sub/a', { kind: 'file', size: 0, hash: sha('') }],
    ]);
  });

  it('a missing root is an empty snapshot, not a partial one', async () => {
    const got = await snapshot([{ label: 'tmp', dir: at('never-made') }]);
    expect(got.files.size).toBe(0);
    expect(got.truncated).toBeUndefined();
  });

  it('prefixes each root by its label', async () => {
    const other = at('other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'x'), 'x');
    const got = await snapshot([
      { label: 'bound', dir: other },
      { label: 'none', dir: at('missing') },
    ]);
    expect([...got.files.keys()]).toEqual(['bound/x']);
  });

  it('does not follow a link: to /etc, to itself, to its own directory', async () => {
    symlinkSync('/etc', at('etc'));
    symlinkSync('loop', at('loop'));
    symlinkSync('.', at('up'));
    const got = await snap();
    expect([...got.files]).toEqual([
      ['home/etc', { kind: 'symlink', size: 4, hash: sha('/etc') }],
      ['home/loop', { kind: 'symlink', size: 4, hash: sha('loop') }],
      ['home/up', { kind: 'symlink', size: 1, hash: sha('.') }],
    ]);
    expect(got.truncated).toBeUndefined();
  });

  it.skipIf(!hasDevZero)('never reads a device: kind other, no hash', async () => {
    // Only /dev's own entries: what is under it differs from machine to machine.
    const got = await snapshot([{ label: 'dev', dir: '/dev' }], bounded({ maxDepth: 1 }));
    expect(got.files.get('dev/zero')).toEqual({ kind: 'other', size: 0, hash: '' });
    expect(got.files.get('dev/null')).toEqual({ kind: 'other', size: 0, hash: '' });
  });

  it('keeps a name with control characters as it is', async () => {
    writeFileSync(at('a\nb\u001b[31m'), 'x');
    const got = await snap();
    expect([...got.files.keys()]).toEqual(['home/a\nb\u001b[31m']);
  });

  it('records a name that is not UTF-8 as unreadable, not as absent', async () => {
    writeFileSync(Buffer.from(`${dir}/f\xff`, 'latin1'), 'x');
    const got = await snap();
    expect([...got.files]).toEqual([['home/f\uFFFD', { kind: 'other', size: 0, hash: 'unreadable' }]]);
  });

  it.skipIf(isRoot)('records a file it may not read as unreadable, with its size', async () => {
    writeFileSync(at('secret'), 'abc');
    chmodSync(at('secret'), 0o000);
    const got = await snap();
    expect(got.files.get('home/secret')).toEqual({ kind: 'other', size: 3, hash: 'unreadable' });
  });
});

describe('snapshot bounds', () => {
  it('stops at maxFiles, at the same names in sorted order every time', async () => {
    for (let i = 49; i >= 0; i--) writeFileSync(at(`f${String(i).padStart(2, '0')}`), `${i}`);
    const bounds = bounded({ maxFiles: 10 });
    const first = await snap(bounds);
    expect([...first.files.keys()]).toEqual([...Array(10).keys()].map((i) => `home/f0${i}`));
    expect(first.truncated).toBe('more than 10 files');
    writeFileSync(at('zz'), 'after the cut');
    const again = await snap(bounds);
    expect(changesBetween(first, again)).toEqual([]);
    expect(again.truncated).toBe('more than 10 files');
  });

  it('counts directories as entries and stops inside them', async () => {
    mkdirSync(at('d'));
    for (const name of ['a', 'b', 'c']) writeFileSync(at('d', name), name);
    const got = await snap(bounded({ maxFiles: 3 }));
    expect([...got.files.keys()]).toEqual(['home/d', 'home/d/a', 'home/d/b']);
    expect(got.truncated).toBe('more than 3 files');
  });

  it('stops hashing at maxBytes: the rest is their size only', async () => {
    const a = Buffer.alloc(MiB, 'a');
    writeFileSync(at('a'), a);
    writeFileSync(at('b'), Buffer.alloc(MiB, 'b'));
    writeFileSync(at('c'), '');
    const got = await snap(bounded({ maxBytes: MiB }));
    expect([...got.files]).toEqual([
      ['home/a', { kind: 'file', size: MiB, hash: sha(a) }],
      ['home/b', { kind: 'file', size: MiB, hash: `size:${MiB}` }],
      ['home/c', { kind: 'file', size: 0, hash: 'size:0' }],
    ]);
    expect(got.truncated).toBe(`more than ${MiB} bytes to hash`);
  });

  it('hashes the first maxFileBytes of a bigger file, and says so in the hash', async () => {
    const head = Buffer.alloc(MiB, 'h');
    writeFileSync(at('big'), Buffer.concat([head, Buffer.alloc(2 * MiB, 't')]));
    const got = await snap(bounded({ maxFileBytes: MiB }));
    expect(got.files.get('home/big')).toEqual({ kind: 'file', size: 3 * MiB, hash: `first ${MiB} bytes:${sha(head)}` });
    expect(got.truncated).toBeUndefined();
    // Past the hashed head only the size shows a change.
    appendFileSync(at('big'), 't');
    const grown = await snap(bounded({ maxFileBytes: MiB }));
    expect(changesBetween(got, grown).map((c) => [c.path, c.change, c.after?.size])).toEqual([
      ['home/big', 'changed', 3 * MiB + 1],
    ]);
  });

  it('goes no deeper than maxDepth', async () => {
    mkdirSync(at('a', 'b', 'c'), { recursive: true });
    writeFileSync(at('a', 'b', 'c', 'deep'), 'x');
    const got = await snap(bounded({ maxDepth: 2 }));
    expect([...got.files.keys()]).toEqual(['home/a', 'home/a/b']);
    expect(got.truncated).toBe('deeper than 2 levels');
  });

  it('an empty directory at maxDepth leaves the snapshot whole', async () => {
    mkdirSync(at('a', 'b'), { recursive: true });
    const got = await snap(bounded({ maxDepth: 2 }));
    expect([...got.files.keys()]).toEqual(['home/a', 'home/a/b']);
    expect(got.truncated).toBeUndefined();
  });
});

describe('changesBetween', () => {
  it('finds what was added, removed and changed, in path order', async () => {
    writeFileSync(at('keep'), 'same');
    writeFileSync(at('gone'), 'bye');
    writeFileSync(at('edit'), 'one');
    const before = await snap();
    unlinkSync(at('gone'));
    writeFileSync(at('edit'), 'three');
    writeFileSync(at('new'), 'n');
    mkdirSync(at('empty'));
    expect(changesBetween(before, await snap())).toEqual([
      {
        path: 'home/edit',
        change: 'changed',
        before: { kind: 'file', size: 3, hash: sha('one') },
        after: { kind: 'file', size: 5, hash: sha('three') },
      },
      { path: 'home/empty', change: 'added', after: { kind: 'dir', size: 0, hash: '' } },
      { path: 'home/gone', change: 'removed', before: { kind: 'file', size: 3, hash: sha('bye') } },
      { path: 'home/new', change: 'added', after: { kind: 'file', size: 1, hash: sha('n') } },
    ]);
  });

  it('a touch alone is no change: timestamps are not compared', async () => {
    writeFileSync(at('f'), 'x');
    mkdirSync(at('d'));
    const before = await snap();
    const past = new Date('2001-01-01T00:00:00Z');
    utimesSync(at('f'), past, past);
    utimesSync(at('d'), past, past);
    expect(changesBetween(before, await snap())).toEqual([]);
  });

  it('the same size with other content is a change', async () => {
    writeFileSync(at('f'), 'aaaa');
    const before = await snap();
    writeFileSync(at('f'), 'bbbb');
    expect(changesBetween(before, await snap())).toEqual([
      {
        path: 'home/f',
        change: 'changed',
        before: { kind: 'file', size: 4, hash: sha('aaaa') },
        after: { kind: 'file', size: 4, hash: sha('bbbb') },
      },
    ]);
  });

  it('a file turned into a link of the same text is a change of kind', async () => {
    writeFileSync(at('f'), 'target');
    const before = await snap();
    unlinkSync(at('f'));
    symlinkSync('target', at('f'));
    expect(changesBetween(before, await snap()).map((c) => [c.path, c.change, c.after?.kind])).toEqual([
      ['home/f', 'changed', 'symlink'],
    ]);
  });

  it('leaves out what a control changed, and everything under a volatile directory', async () => {
    mkdirSync(at('cache'));
    writeFileSync(at('server.log'), 'started\n');
    const s0 = await snap();
    writeFileSync(at('server.log'), 'started\ncalled\n');
    writeFileSync(at('cache', 'k1'), '1');
    const s1 = await snap();
    const volatile = new Set([...changesBetween(s0, s0), ...changesBetween(s0, s1)].map((c) => c.path));
    expect([...volatile].sort()).toEqual(['home/cache/k1', 'home/server.log']);
    writeFileSync(at('server.log'), 'started\ncalled\ncalled\n');
    writeFileSync(at('data.json'), '{}');
    const s2 = await snap();
    expect(changesBetween(s1, s2, volatile).map((c) => c.path)).toEqual(['home/data.json']);
    // A directory path ignores what is under it, not its siblings that share a prefix.
    mkdirSync(at('cache', 'nested'));
    writeFileSync(at('cache-2'), 'x');
    const ignore = new Set(['home/cache']);
    expect(changesBetween(s2, await snap(), ignore).map((c) => c.path)).toEqual(['home/cache-2']);
  });
});
