/** bubblewrap's command line: which paths are bound back, and how. */
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { bwrapArgs } from '../../src/targets/bwrap.js';

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
