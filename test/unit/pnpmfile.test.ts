import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pnpmfile } from '../../src/launch/pnpmfile.js';

type Manifest = Record<string, unknown> & { name: string };
const hook = (cacheDir = '/nonexistent', fitEngines = false): ((pkg: Manifest) => Manifest) => {
  const mod = { exports: {} as { hooks: { readPackage: (pkg: Manifest) => Manifest } } };
  new Function('module', 'require', pnpmfile({ cacheDir, fitEngines }))(mod, createRequire(import.meta.url));
  return mod.exports.hooks.readPackage;
};

/**
 * A cache whose pnpm metadata knows `lib`: 1.0.0 and 1.1.0 run on any Node, 1.2.0 and 2.0.0 want
 * Node 99; and `old`, whose only version for this Node is deprecated.
 */
function cacheWithMetadata(): string {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-pnpmfile-'));
  const host = path.join(cacheDir, 'npm', '.metadata', 'metadata-v1.3', 'registry.npmjs.org');
  mkdirSync(host, { recursive: true });
  const future = { engines: { node: '>=99' } };
  const versions = { '1.0.0': {}, '1.1.0': { engines: { node: '>=18' } }, '1.2.0': future, '2.0.0': future };
  writeFileSync(path.join(host, 'lib.json'), JSON.stringify({ 'dist-tags': { latest: '2.0.0' }, versions }));
  const old = { '1.0.0': { deprecated: 'use 1.1' }, '1.1.0': future };
  writeFileSync(path.join(host, 'old.json'), JSON.stringify({ 'dist-tags': { latest: '1.1.0' }, versions: old }));
  return cacheDir;
}

describe('the pnpmfile every npm install gets', () => {
  it("gives the SDK its own zod, from its own range, not a server's older one", () => {
    const sdk = hook()({
      name: '@modelcontextprotocol/sdk',
      dependencies: { ajv: '^8' },
      peerDependencies: { zod: '^3.25 || ^4.0' },
    });
    expect(sdk.dependencies).toEqual({ ajv: '^8', zod: '^3.25 || ^4.0' });
    expect(sdk.peerDependencies).toEqual({});
    const other = hook()({ name: 'some-server', peerDependencies: { zod: '^3' } });
    expect(other.peerDependencies).toEqual({ zod: '^3' });
  });

  it('reads a name in both dependencies and peerDependencies as a dependency, as npm does', () => {
    const sdk = hook()({
      name: '@morphllm/morphsdk',
      dependencies: { ai: '>=5.0.0', diff: '^7' },
      peerDependencies: { ai: '>=5.0.0', react: '^19' },
      peerDependenciesMeta: { ai: { optional: true }, react: { optional: true } },
    });
    expect(sdk.dependencies).toEqual({ ai: '>=5.0.0', diff: '^7' });
    expect(sdk.peerDependencies).toEqual({ react: '^19' });
    expect(sdk.peerDependenciesMeta).toEqual({ react: { optional: true } });
  });

  it("drops a published package's file: and link: dependencies, which point into its author's machine", () => {
    const pkg = hook()({
      name: 'stockquotes-mcp',
      dependencies: { core: 'file:../StockQuotes.API/packages/core', zod: '^3' },
      optionalDependencies: { x: 'link:../x' },
    });
    expect(pkg.dependencies).toEqual({ zod: '^3' });
    expect(pkg.optionalDependencies).toEqual({});
  });

  it("fits a dependency to this Node, as npm picks, only when asked and only where pnpm's pick does not fit", () => {
    const cacheDir = cacheWithMetadata();
    const manifest = (): Manifest => ({ name: 'server', dependencies: { lib: '^1.0.0', other: '^3' } });
    expect(hook(cacheDir, false)(manifest()).dependencies).toEqual({ lib: '^1.0.0', other: '^3' });
    expect(hook(cacheDir, true)(manifest()).dependencies).toEqual({ lib: '1.1.0', other: '^3' });
    // Nothing in the range fits: the range stays, and pnpm picks its highest, as npm does then.
    const none = hook(cacheDir, true)({ name: 'server', dependencies: { lib: '^2.0.0' } });
    expect(none.dependencies).toEqual({ lib: '^2.0.0' });
    // npm prefers a version that is not deprecated to one that fits this Node.
    const deprecated = hook(cacheDir, true)({ name: 'server', dependencies: { old: '^1.0.0' } });
    expect(deprecated.dependencies).toEqual({ old: '^1.0.0' });
    // A name that is no npm name is never made a path: this one would lead back to lib's file.
    const odd = hook(cacheDir, true)({ name: 'server', dependencies: { '../registry.npmjs.org/lib': '^1.0.0' } });
    expect(odd.dependencies).toEqual({ '../registry.npmjs.org/lib': '^1.0.0' });
  });
});
