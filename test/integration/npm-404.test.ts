/** A real npm, against a local registry (test/helpers/npm-registry.ts): what a missing package or version reads as. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { installEntry } from '../../src/launch/npm-entry.js';
import { startRegistry, type LocalRegistry } from '../helpers/npm-registry.js';

const PACKAGE = fileURLToPath(new URL('../fixtures/packages/npx-server', import.meta.url));
let npm: LocalRegistry;
beforeAll(async () => {
  npm = await startRegistry([{ dir: PACKAGE, versions: ['1.0.0'] }]);
  // installEntry passes npm the user's npm_config_* settings: here, the local registry.
  for (const [k, v] of Object.entries(npm.env())) vi.stubEnv(k, v);
}, 120_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await npm?.close();
});

const cache = () => mkdtempSync(path.join(os.tmpdir(), 'idemscan-npm-404-'));

describe('an npm install that fails', () => {
  it(
    'of a package the registry does not have reads as one line, without the debug-log path',
    { timeout: 120_000 },
    async () => {
      const got = await installEntry('idemscan-no-such-package@1.0.0', cache());
      expect(got).toEqual({
        ok: false,
        canceled: false,
        error: 'npm has no package "idemscan-no-such-package" (404 from the registry)',
      });
      expect(npm.requests).toContain('/idemscan-no-such-package');
    },
  );

  it('of a version the registry does not have names the version', { timeout: 120_000 }, async () => {
    const got = await installEntry('idemscan-npx-probe@9.9.9', cache());
    expect(got).toMatchObject({ ok: false, error: 'npm has no version 9.9.9 of "idemscan-npx-probe"' });
  });
});
