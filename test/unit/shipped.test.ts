import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shippedPaths } from '../../src/launch/shipped.js';
import type { Target } from '../../src/targets/types.js';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'idemscan-shipped-unit-')));
const home = path.join(root, 'home');
const lists = path.join(home, 'lists');
mkdirSync(path.join(lists, 'fake', 'dir'), { recursive: true });
writeFileSync(path.join(lists, 'fake', 'keys.json'), '{}');
writeFileSync(path.join(lists, 'fake', 'dir', 'a.json'), '{}');
writeFileSync(path.join(lists, '.env'), 'S=1');
writeFileSync(path.join(home, 'outside.txt'), 'x');
symlinkSync(path.join(home, 'outside.txt'), path.join(lists, 'fake', 'link.txt'));

const target = (listFolder: string | undefined, fields: Partial<Target> = {}): Target =>
  ({ kind: 'command', name: 'x', source: 't', command: 'node', listFolder, ...fields }) as Target;

describe('shippedPaths', () => {
  it('gives the files and folders an entry names inside its list folder, through args, env and cwd', () => {
    const t = target(lists, {
      args: [`--config=${lists}/fake/keys.json`],
      env: { DIR: path.join(lists, 'fake', 'dir') },
      cwd: path.join(lists, 'fake'),
    } as Partial<Target>);
    expect(shippedPaths(t, home).sort()).toEqual(
      [path.join(lists, 'fake'), path.join(lists, 'fake', 'dir'), path.join(lists, 'fake', 'keys.json')].sort(),
    );
  });

  it('never the folder itself, a dot entry, a link out of the folder, or anything without a list', () => {
    const env = {
      A: lists,
      B: path.join(lists, '.env'),
      C: path.join(lists, 'fake', 'link.txt'),
      D: `${lists}/../outside.txt`,
    };
    expect(shippedPaths(target(lists, { env } as Partial<Target>), home)).toEqual([]);
    expect(shippedPaths(target(undefined, { env: { K: `${lists}/fake/keys.json` } } as Partial<Target>), home)).toEqual(
      [],
    );
  });

  it('nothing when the list lies in HOME itself or in a hidden root', () => {
    const env = { K: path.join(lists, 'fake', 'keys.json') };
    expect(shippedPaths(target(home, { env } as Partial<Target>), home)).toEqual([]);
    expect(shippedPaths(target(os.tmpdir(), { env } as Partial<Target>), home)).toEqual([]);
    expect(shippedPaths(target('/', { env } as Partial<Target>), home)).toEqual([]);
  });
});
