/**
 * launch/writable.ts's unbound-path rules (issue 29, docs/SANDBOX.md): which paths a sandboxed
 * server is given that it would not see. Pure file-system checks on a fake HOME under /tmp, no
 * server started; the library and CLI callers are covered in test/integration/sandbox-writable.test.ts.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unboundPaths } from '../../src/launch/writable.js';

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'idemscan-unbound-')));
const home = path.join(dir, 'home');
mkdirSync(path.join(home, 'data'), { recursive: true });
writeFileSync(path.join(home, 'data', 'old.db'), '');
const cache = path.join(dir, 'cache');
const check = (given: { args?: string[]; env?: Record<string, string>; cwd?: string }, writable: string[] = []) =>
  unboundPaths({ args: given.args ?? [], env: given.env ?? {}, cwd: given.cwd }, writable, cache, home);

describe('unboundPaths', () => {
  it('a cwd under HOME is hidden unless bound; one under /tmp is bound back read-only', () => {
    expect(check({ cwd: path.join(home, 'data') })).toEqual([
      { path: path.join(home, 'data'), via: 'cwd', field: 'cwd' },
    ]);
    expect(check({ cwd: path.join(home, 'data') }, [path.join(home, 'data')])).toEqual([]);
    expect(check({ cwd: dir })).toEqual([]);
  });

  it('a store that does not exist yet, in a directory the sandbox hides, is named as missing', () => {
    const store = path.join(home, 'data', 'memory.jsonl');
    expect(check({ env: { MEMORY_FILE_PATH: store } })).toEqual([
      { path: store, via: 'env MEMORY_FILE_PATH', field: 'env.MEMORY_FILE_PATH', missing: true },
    ]);
    // Under /tmp too: the sandbox's /tmp is private, a new file there is lost (the "empty store").
    const tmpStore = path.join(dir, 'new.jsonl');
    expect(check({ args: ['--db', tmpStore] })).toEqual([
      { path: tmpStore, via: 'argument 2', field: 'args[1]', missing: true },
    ]);
    expect(check({ env: { MEMORY_FILE_PATH: store } }, [path.join(home, 'data')])).toEqual([]);
  });

  it('a missing path whose directory does not exist either, a relative one or a URL names nothing', () => {
    expect(
      check({
        args: [path.join(home, 'absent', 'x.db'), './absent.db'],
        env: { URL: 'https://example.com/a/b', REL: 'data/new.db' },
      }),
    ).toEqual([]);
  });

  it('an existing argument under HOME is hidden, one under /tmp is bound back read-only', () => {
    const db = path.join(home, 'data', 'old.db');
    expect(check({ args: [`--db=${db}`] })).toEqual([{ path: db, via: 'argument 1', field: 'args[0]' }]);
    writeFileSync(path.join(dir, 'old.db'), '');
    expect(check({ args: [path.join(dir, 'old.db')] })).toEqual([]);
    expect(check({ env: { DB: path.join(dir, 'old.db') } })).toEqual([
      { path: path.join(dir, 'old.db'), via: 'env DB', field: 'env.DB' },
    ]);
  });
});
