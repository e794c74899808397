import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { engineMisfits } from '../../src/launch/npm-engines.js';

/** An entry's virtual store: one slot per package, its own directory beside links to its dependencies. */
function entry(packages: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-engines-'));
  for (const [id, engines] of Object.entries(packages)) {
    const at = id.lastIndexOf('@');
    const [name, version] = [id.slice(0, at), id.slice(at + 1)];
    const pkg = path.join(dir, 'node_modules', '.pnpm', id.replace('/', '+'), 'node_modules', name);
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name, version, engines }));
  }
  return dir;
}

it("names the packages of an entry's tree that want another Node, but for the entry's own", async () => {
  const dir = entry({
    'server@1.0.0': { node: '>=99' },
    '@scope/lib@2.0.0': { node: '>=99' },
    'fits@1.0.0': { node: '>=18' },
    'any@1.0.0': undefined,
    'odd@1.0.0': { node: 'not a range' },
  });
  // A link to a dependency is no package of its own: the slot it points to is read once.
  const links = path.join(dir, 'node_modules', '.pnpm', 'server@1.0.0', 'node_modules', '@scope');
  mkdirSync(links);
  symlinkSync('../../../@scope+lib@2.0.0/node_modules/@scope/lib', path.join(links, 'lib'));
  expect(await engineMisfits(dir, 'server@1.0.0')).toEqual(['@scope/lib@2.0.0']);
});

it('finds nothing in an entry without a virtual store, rather than failing its install', async () => {
  expect(await engineMisfits(mkdtempSync(path.join(os.tmpdir(), 'idemscan-engines-')), 'x@1.0.0')).toEqual([]);
});
