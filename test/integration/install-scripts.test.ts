/**
 * Installs run no package code unless the target says why it needs its install scripts; those
 * then run in the sandbox, without the user's npm token, proxy credentials or npmrc. A local
 * tarball (`name@file:...tgz`) stands in for the registry: installPackages is the same code.
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseTargets } from '../../src/targets/published.js';
import { installPackages } from '../../src/launch/npm.js';
import { isInstalled, packageDir } from '../../src/launch/npm-cache.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';

const PACKAGE = fileURLToPath(new URL('../fixtures/packages/install-probe', import.meta.url));
const saved = { ...process.env };
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-scripts-'));
  // The user's secrets, as idemscan would find them: a token in the env and in ~/.npmrc, a proxy password.
  const home = path.join(dir, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n');
  process.env.HOME = home;
  process.env.npm_config__authToken = 'ENV-TOKEN-SECRET';
  process.env['npm_config_//registry.npmjs.org/:_authToken'] = 'ENV-TOKEN-SECRET';
  process.env.HTTPS_PROXY = 'http://user:PROXY-SECRET@127.0.0.1:9';
});
afterEach(() => {
  process.env = { ...saved };
});

it('declares install scripts in a target file, with the reason, for npm packages only', () => {
  const { targets, skipped } = parseTargets(
    JSON.stringify({
      servers: [
        { name: 'native', npm: 'some-server@1.2.3', installScripts: 'builds its sqlite binding' },
        { name: 'cmd', command: 'node', installScripts: 'no' },
        { name: 'empty', npm: 'x@1.0.0', installScripts: '' },
      ],
    }),
    'targets.json',
  );
  expect(targets.map((t) => [t.name, t.installScripts])).toEqual([['native', 'builds its sqlite binding']]);
  expect(skipped.map((s) => s.name)).toEqual(['cmd', 'empty']);
});

it.skipIf(!sandboxPrefix())(
  'runs no install script by default, a declared one in the sandbox without secrets',
  { timeout: 180_000 },
  async () => {
    const pack = await execa('npm', ['pack', PACKAGE, '--pack-destination', dir, '--silent'], {
      env: { npm_config_update_notifier: 'false' },
    });
    const spec = `idemscan-install-probe@file:${path.join(dir, pack.stdout.trim().split('\n').pop()!)}`;
    const cache = path.join(dir, 'cache');
    const ran = path.join(packageDir(cache, spec), 'node_modules', 'idemscan-install-probe', 'ran.json');

    const [plain] = await installPackages([spec], cache, 1);
    expect(plain!.ok, plain!.error).toBe(true);
    expect(plain!.scripts).toBeUndefined();
    expect(existsSync(ran), 'the postinstall ran without being asked for').toBe(false);
    expect(isInstalled(cache, spec, true)).toBe(false);

    // The same cache entry, now for a target that needs its scripts: only the scripts run.
    const [scripts] = await installPackages([spec], cache, 1, new Map([[spec, 'writes a marker']]));
    expect(scripts!.ok, scripts!.error).toBe(true);
    expect(isInstalled(cache, spec, true)).toBe(true);
    const seen = JSON.parse(readFileSync(ran, 'utf8')) as Record<string, string | string[]>;
    expect(JSON.stringify(seen)).not.toMatch(/SECRET/);
    expect(seen.tokens).toEqual([]);
    if (sandboxPrefix()![0] === 'bwrap') {
      expect(scripts!.scripts).toBe('bubblewrap');
      expect(scripts!.note).toBeUndefined();
      expect(seen.npmrc).toMatch(/^denied/);
      // Writes outside the entry land in the sandbox's scratch tmpfs (or fail), never on the host.
      expect(existsSync(path.join(dir, 'outside-written'))).toBe(false);
      expect(existsSync(path.join(dir, 'home', 'script-written'))).toBe(false);
    } else {
      expect(scripts!.scripts).toBe('netns');
      expect(scripts!.note).toMatch(/without bubblewrap/);
    }
  },
);
