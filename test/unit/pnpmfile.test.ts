import { describe, expect, it } from 'vitest';
import { PNPMFILE } from '../../src/launch/pnpm.js';

type Manifest = Record<string, unknown> & { name: string };
const hook = (): ((pkg: Manifest) => Manifest) => {
  const mod = { exports: {} as { hooks: { readPackage: (pkg: Manifest) => Manifest } } };
  new Function('module', PNPMFILE)(mod);
  return mod.exports.hooks.readPackage;
};

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

  it("drops a published package's file: and link: dependencies, which point into its author's machine", () => {
    const pkg = hook()({
      name: 'stockquotes-mcp',
      dependencies: { core: 'file:../StockQuotes.API/packages/core', zod: '^3' },
      optionalDependencies: { x: 'link:../x' },
    });
    expect(pkg.dependencies).toEqual({ zod: '^3' });
    expect(pkg.optionalDependencies).toEqual({});
  });
});
