/** bubblewrap's command line: which paths are bound back, and how. */
import { mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { bwrapArgs } from '../../src/targets/bwrap.js';

/** The `flag path path` triples of a command line that bind `p`. */
function bindsOf(args: string[], p: string): string[] {
  return args.flatMap((a, i) => (args[i + 1] === p && args[i + 2] === p ? [a] : []));
}

it('binds a writable directory outside the hidden roots read-write (an install cache under --cache-dir /srv/...)', () => {
  // Outside /tmp and the homes: under the repository, as a --cache-dir like /work/cache would be.
  mkdirSync('test-artifacts', { recursive: true });
  const entry = mkdtempSync(path.resolve('test-artifacts', 'bwrap-'));
  const args = bwrapArgs({ home: '/root', readable: [entry], writable: [entry], cwd: entry });
  expect(bindsOf(args, entry)).toEqual(['--bind']);
});

it('never binds / or a parent of HOME writable', () => {
  const args = bwrapArgs({ home: '/root', readable: [], writable: ['/', '/root'], cwd: '/' });
  expect(bindsOf(args, '/')).toEqual(['--ro-bind']);
  expect(bindsOf(args, '/root')).toEqual([]);
});
