/**
 * What `npm install -g git+https://github.com/<owner>/idemscan#<sha>` installs: `npm pack` of a copy of
 * this checkout (so `prepare` builds it there, from src/, as npm does for a Git dependency), the
 * tarball unpacked into a fresh global prefix with its bin linked the way npm links it, then
 * `idemscan --version` and a scan of a fixture server from another directory. The dependencies
 * come from this checkout's node_modules: the test must not reach the npm registry.
 */
import { execa } from 'execa';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'idemscan-pack-'));
const copy = path.join(tmp, 'checkout');
const prefix = path.join(tmp, 'prefix');
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};
let files: string[] = [];
const bin = path.join(prefix, 'bin', 'idemscan');

beforeAll(async () => {
  mkdirSync(copy);
  for (const p of [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'src',
    'targets',
    'profiles',
    'docs',
    'README.md',
    'LICENSE',
  ]) {
    cpSync(path.join(repo, p), path.join(copy, p), { recursive: true });
  }
  symlinkSync(realpathSync(path.join(repo, 'node_modules')), path.join(copy, 'node_modules'));
  // `npm pack` runs `prepare` (the build) first; --json lists the files packed.
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', tmp], {
    cwd: copy,
    env: { npm_config_offline: 'true' },
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  files = info!.files.map((f) => f.path);
  const lib = path.join(prefix, 'lib', 'node_modules', 'idemscan');
  mkdirSync(lib, { recursive: true });
  await execa('tar', ['-xzf', path.join(tmp, info!.filename), '-C', lib, '--strip-components=1']);
  symlinkSync(realpathSync(path.join(repo, 'node_modules')), path.join(lib, 'node_modules'));
  mkdirSync(path.dirname(bin));
  symlinkSync(path.join('..', 'lib', 'node_modules', 'idemscan', pkg.bin.idemscan!), bin);
}, 120_000);

describe('the packed package, installed globally', () => {
  it('holds the built CLI, the bundled lists, the docs and the licence, and no sources or tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/cli/main.js',
        'dist/index.js',
        'dist/index.d.ts',
        'targets/reference.json',
        'docs/METHODOLOGY.md',
        'LICENSE',
        'README.md',
        'package.json',
      ]),
    );
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
  });

  it('runs as `idemscan` from anywhere: --version, and a scan of a fixture server', async () => {
    const env = { ...process.env, PATH: `${path.dirname(bin)}:${path.dirname(process.execPath)}` };
    const version = await execa(bin, ['--version'], { env, cwd: tmp });
    expect(version.stdout.trim()).toBe(pkg.version);
    writeFileSync(
      path.join(tmp, 'targets.json'),
      JSON.stringify({ servers: [{ name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio] }] }),
    );
    const r = await execa(bin, ['scan', 'targets.json', '--timeout', '15000'], { env, cwd: tmp, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/can be retried safely/);
    expect(r.stderr).toContain('idemscan: wrote output/report.json');
  });
});

describe('npm install -g . in a clone', () => {
  it('without its dev dependencies stops at once with what to run first, not "tsc: not found"', async () => {
    const fresh = path.join(tmp, 'fresh-clone');
    mkdirSync(fresh);
    cpSync(path.join(repo, 'package.json'), path.join(fresh, 'package.json'));
    const r = await execa('npm', ['install', '-g', '--prefix', path.join(tmp, 'fresh-prefix'), '.'], {
      cwd: fresh,
      env: { npm_config_offline: 'true' },
      reject: false,
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('run npm ci in the clone first, then npm install -g .');
    expect(r.stderr).not.toContain('tsc: not found');
  });
});
