/** bubblewrap's command line: which paths are bound back, and how. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { bwrapArgs } from '../../src/launch/bwrap.js';
import { passwdHomes } from '../../src/launch/homes.js';

/** The `flag path path` triples of a command line that bind `p`. */
function bindsOf(args: string[], p: string): string[] {
  return args.flatMap((a, i) => (args[i + 1] === p && args[i + 2] === p ? [a] : []));
}

it('binds a writable directory outside the hidden roots read-write (an install cache under --cache-dir /srv/...)', () => {
  // Outside /tmp, /run and the homes, as a --cache-dir like /srv/cache would be (/dev/shm is not
  // hidden; the repository may be, when it is cloned under /tmp).
  const entry = mkdtempSync(path.join('/dev/shm', 'idemscan-bwrap-'));
  try {
    const args = bwrapArgs({ home: '/root', readable: [], writable: [entry], cwd: '/' });
    expect(bindsOf(args, entry)).toEqual(['--bind']);
  } finally {
    rmSync(entry, { recursive: true, force: true });
  }
});

it('never binds / or a parent of HOME writable', () => {
  const args = bwrapArgs({ home: '/root', readable: [], writable: ['/', '/root'], cwd: '/' });
  expect(bindsOf(args, '/')).toEqual(['--ro-bind']);
  expect(bindsOf(args, '/root')).toEqual([]);
});

it('reads the homes of a passwd file, less / and the system trees, existing directories only', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-passwd-')); // not /dev/shm: /dev is a system tree
  try {
    const alice = path.join(dir, 'alice');
    mkdirSync(alice);
    const file = path.join(dir, 'passwd');
    writeFileSync(
      file,
      [
        'root:x:0:0:root:/root:/bin/bash',
        'bin:x:2:2:bin:/bin:/usr/sbin/nologin',
        'sys:x:3:3:sys:/dev:/usr/sbin/nologin',
        'net:x:998:998::/:/usr/sbin/nologin',
        'none:x:65534:65534::/nonexistent:/usr/sbin/nologin',
        'games:x:5:60::/usr/games:/usr/sbin/nologin',
        `alice:x:1001:1001::${alice}:/bin/bash`,
        'broken line',
        '',
      ].join('\n'),
    );
    expect(passwdHomes(file)).toEqual(['/root', alice]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('hides passwd homes and cache dirs, each tmpfs size-bounded, parents before children', () => {
  const dir = mkdtempSync(path.join('/dev/shm', 'idemscan-bwrap-'));
  try {
    const alice = path.join(dir, 'alice');
    const cwd = path.join(dir, 'work');
    const cache = path.join(cwd, '.cache');
    const entry = path.join(cache, 'npm', 'own@1.0.0');
    for (const d of [alice, entry, path.join(cache, 'oauth')]) mkdirSync(d, { recursive: true });
    // As if /dev/shm were hidden, by hiding `dir` as a home: the cwd is then bound back over it.
    const args = bwrapArgs({
      home: '/root',
      homes: [dir],
      hide: [cache],
      readable: [cwd, entry],
      writable: [],
      placeholders: [alice],
      cwd,
      tmpfsBytes: 1 << 20,
    });
    const tmpfs = args.flatMap((a, i) => (a === '--tmpfs' ? [args[i + 1]] : []));
    expect(tmpfs).toEqual(expect.arrayContaining([dir, cache, '/tmp', '/root']));
    for (const [i, a] of args.entries())
      if (a === '--tmpfs') expect(args.slice(i - 2, i)).toEqual(['--size', String(1 << 20)]);
    const at = (flag: string, p: string) => args.findIndex((a, i) => a === flag && args[i + 1] === p);
    expect(at('--tmpfs', dir)).toBeLessThan(at('--ro-bind', cwd));
    expect(at('--ro-bind', cwd)).toBeLessThan(at('--tmpfs', cache));
    expect(at('--tmpfs', cache)).toBeLessThan(at('--ro-bind', entry));
    expect(at('--dir', alice)).toBeGreaterThan(at('--tmpfs', dir));
    expect(bwrapArgs({ home: '/root', readable: [], writable: [], cwd: '/' })).not.toContain('--size');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('under a home, a command brings its installed package (node_modules) but not a project around it', () => {
  const dir = mkdtempSync(path.join('/dev/shm', 'idemscan-bwrap-'));
  try {
    const npx = path.join(dir, '.nvm', 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js');
    const tool = path.join(dir, 'proj', 'bin', 'tool');
    for (const f of [npx, tool]) mkdirSync(path.dirname(f), { recursive: true });
    for (const f of [npx, tool]) writeFileSync(f, '');
    writeFileSync(path.join(dir, '.nvm', 'lib', 'node_modules', 'npm', 'package.json'), '{}');
    writeFileSync(path.join(dir, 'proj', 'package.json'), '{}');
    const args = bwrapArgs({ home: '/root', homes: [dir], readable: [npx, tool], writable: [], cwd: '/' });
    expect(bindsOf(args, path.join(dir, '.nvm', 'lib', 'node_modules', 'npm'))).toEqual(['--ro-bind']);
    expect(bindsOf(args, path.join(dir, 'proj'))).toEqual([]);
    expect(bindsOf(args, tool)).toEqual(['--ro-bind']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
