/**
 * A FIFO where a file is expected: bubblewrap binds none named by a target, and discovery refuses
 * one as a config without blocking on it. A FIFO is made by mkfifo, a process: so these are here
 * and not in test/unit, whose tests start none.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { bwrapArgs } from '../../src/launch/bwrap.js';
import { discover } from '../../src/targets/discover/index.js';
import { emptyHome } from '../helpers/discover-home.js';

/** The `flag path path` triples of a command line that bind `p`. */
function bindsOf(args: string[], p: string): string[] {
  return args.flatMap((a, i) => (args[i + 1] === p && args[i + 2] === p ? [a] : []));
}

it('binds a named FIFO nowhere, a named directory holding one only as an empty placeholder, nothing named under /run', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-named-'));
  const run = (() => {
    try {
      return mkdtempSync('/run/idemscan-named-');
    } catch {
      return undefined; // /run not writable as an ordinary user: that case is skipped
    }
  })();
  try {
    const fifo = path.join(dir, 'pipes', 'fifo');
    mkdirSync(path.dirname(fifo));
    execFileSync('mkfifo', [fifo]);
    mkdirSync(path.join(dir, 'files'));
    writeFileSync(path.join(dir, 'files', 'a.txt'), '');
    if (run) writeFileSync(path.join(run, 'a.txt'), '');
    const named = [fifo, path.dirname(fifo), path.join(dir, 'files'), ...(run ? [run, path.join(run, 'a.txt')] : [])];
    const args = bwrapArgs({ home: '/root', readable: [], named, writable: [], cwd: '/' });
    expect(bindsOf(args, fifo)).toEqual([]);
    expect(bindsOf(args, path.dirname(fifo))).toEqual([]);
    expect(args.join(' ')).toContain(`--dir ${path.dirname(fifo)}`);
    expect(bindsOf(args, path.join(dir, 'files'))).toEqual(['--ro-bind']);
    if (run) {
      expect(bindsOf(args, run)).toEqual([]);
      expect(bindsOf(args, path.join(run, 'a.txt'))).toEqual([]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (run) rmSync(run, { recursive: true, force: true });
  }
});

it('refuses a FIFO or a device where a file should be, without blocking on it', async () => {
  const e = emptyHome();
  try {
    mkdirSync(path.join(e.home, '.cursor'));
    execFileSync('mkfifo', [path.join(e.home, '.cursor', 'mcp.json')]);
    mkdirSync(path.join(e.home, '.lmstudio'));
    symlinkSync('/dev/zero', path.join(e.home, '.lmstudio', 'mcp.json'));
    const got = await discover({ home: e.home, platform: 'linux', env: {} });
    expect(got.files.map((f) => [f.client, f.error])).toEqual([
      ['Cursor', 'not a regular file'],
      ['LM Studio', 'not a regular file'],
    ]);
  } finally {
    e.cleanup();
  }
});
