/** The spool file: servers read back in list order; a write that fails (here /dev/full: ENOSPC) loses none. */
import { existsSync, mkdtempSync, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSpool } from '../../src/spool/file-spool.js';
import { readSpool } from '../../src/spool/read-spool.js';
import { SpoolKey } from '../../src/spool/spool-mac.js';
import { okServer } from '../helpers/reports.js';

const run = { tool: '0', trust: [], sandbox: false, maxPages: 1, profiles: [] };
const header = { schemaVersion: '1', startedAt: new Date().toISOString(), run };
const key = SpoolKey.of(mkdtempSync(path.join(os.tmpdir(), 'idemscan-spool-key-')));
const keyOf = (p: number) => `key-${p}`;

describe('FileSpool', () => {
  it('reads the servers back in list order, whatever order they finished in', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'idemscan-spool-')), 'scan.spool.ndjson');
    const spool = FileSpool.create(file, header, keyOf, key);
    for (const p of [2, 0, 1]) spool.add(p, okServer(`s${p}`, []));
    expect([...spool.servers()].map((s) => s.name)).toEqual(['s0', 's1', 's2']);
    expect(spool.failure).toBeUndefined();
    spool.remove();
    expect(existsSync(file)).toBe(false);
  });

  it('a spool read back and written anew (--resume) has an id of its own and reads back again', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'idemscan-spool-')), 'scan.spool.ndjson');
    const first = FileSpool.create(file, header, keyOf, key);
    for (const p of [2, 0]) first.add(p, okServer(`s${p}`, []));
    first.close();
    const old = readSpool(file, key);
    const next = FileSpool.create(`${file}.resume`, old.header, keyOf, key);
    for (const { entry } of old.lines()) next.addLine(Number(entry.key.slice(4)), JSON.stringify(entry));
    next.add(1, okServer('s1', []));
    const moved = next.moveTo(file);
    expect([...moved.servers()].map((s) => s.name)).toEqual(['s0', 's1', 's2']);
    moved.close();
    const again = readSpool(file, key);
    expect(again.header.spool).not.toBe(old.header.spool);
    expect(again.header.startedAt).toBe(header.startedAt);
    // In the order they were written, each signed for its line of this spool.
    expect([...again.lines()].map(({ line, entry }) => [line, entry.server.name])).toEqual([
      [2, 's2'],
      [3, 's0'],
      [4, 's1'],
    ]);
  });

  it.runIf(existsSync('/dev/full'))('a failed write keeps that server and every later one in memory', () => {
    const spool = FileSpool.onDescriptor('/dev/full', openSync('/dev/full', 'w'), header, keyOf, key);
    expect(() => {
      for (const p of [1, 0, 2]) spool.add(p, okServer(`s${p}`, []));
    }).not.toThrow();
    expect(spool.failure).toBe('ENOSPC');
    expect(spool.inMemory).toBe(3);
    expect([...spool.servers()].map((s) => s.name)).toEqual(['s0', 's1', 's2']);
    spool.close();
  });
});
