/** The package types beyond npm: what pinned means, the exact install and run lines, uvx, zips, bundles. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTargets } from '../../src/targets/published.js';
import { bundleLaunch } from '../../src/launch/mcpb.js';
import { parseManifest } from '../../src/launch/mcpb-manifest.js';
import { ociRunArgs } from '../../src/launch/oci.js';
import { parseOciRef, parsePypiSpec } from '../../src/model/package-spec.js';
import { pypiInstallCommands } from '../../src/launch/pypi.js';
import { pypiLaunchTargets, readUvx } from '../../src/launch/pypi-launch.js';
import { prefixProblem, venvPrefix } from '../../src/launch/python.js';
import type { CommandTarget } from '../../src/targets/types.js';
import { entryNameProblem, readZip } from '../../src/launch/zip.js';
import { nodeHeaders } from '../../src/launch/npm-scripts.js';
import { zip } from '../helpers/zip-writer.js';

describe('pinned PyPI and OCI specs', () => {
  it.each(['mcp-server-fetch==2025.4.7', 'a==1.0rc1', 'A.b_c==1!2.0.post1.dev3', 'a==1.0+local.1'])(
    'takes %s',
    (spec) => {
      expect(parsePypiSpec(spec)).not.toHaveProperty('error');
    },
  );
  it.each([
    ['a>=1', '">" is not "==": not pinned'],
    ['a', 'no version: not pinned'],
    ['a==1.*', 'a wildcard (unpinned)'],
    ['a===1.0', '"===" (arbitrary equality) is not a version'],
    ['a==latest', 'not an exact PEP 440 version (unpinned)'],
    ['../x==1', 'not a PyPI package name'],
    ['a@1.0', '"@" is not "=="'],
  ])('refuses %s: %s', (spec, reason) => {
    expect((parsePypiSpec(spec) as { error: string }).error).toContain(reason);
  });
  it.each(['ghcr.io/o/s:1.2.3', 'o/s:v1', `s@sha256:${'a'.repeat(64)}`, 'localhost:5000/s:1'])(
    'takes the image %s',
    (ref) => {
      expect(parseOciRef(ref)).not.toHaveProperty('error');
    },
  );
  it.each([
    ['o/s', 'no tag, so "latest"'],
    ['o/s:latest', '"latest" is not pinned'],
    ['o/s@sha256:xyz', 'not a sha256 digest'],
    ['--privileged', 'not an image name'],
  ])('refuses the image %s', (ref, reason) => {
    expect((parseOciRef(ref) as { error: string }).error).toContain(reason);
  });
});

describe('command lines', () => {
  const plan = { python: '/py/bin/python3.11', venv: '/c/pypi/p@1/venv', spec: 'p==1', index: 'file:///idx/simple' };
  it('pip: venv, then isolated pip, wheels only', () => {
    expect(pypiInstallCommands(plan)).toEqual([
      { command: '/py/bin/python3.11', args: ['-m', 'venv', '/c/pypi/p@1/venv'] },
      {
        command: '/c/pypi/p@1/venv/bin/python',
        args: [
          '-m',
          'pip',
          'install',
          '--isolated',
          '--no-input',
          '--disable-pip-version-check',
          '--no-cache-dir',
          '--quiet',
          '--index-url',
          'file:///idx/simple',
          '--only-binary',
          ':all:',
          'p==1',
        ],
      },
    ]);
  });
  it('uv: no config, wheels only unless sdists are allowed', () => {
    expect(pypiInstallCommands({ ...plan, uv: '/bin/uv' })).toEqual([
      {
        command: '/bin/uv',
        args: ['venv', '--no-config', '--quiet', '--python', '/py/bin/python3.11', '/c/pypi/p@1/venv'],
      },
      {
        command: '/bin/uv',
        args: [
          'pip',
          'install',
          '--no-config',
          '--quiet',
          '--python',
          '/c/pypi/p@1/venv/bin/python',
          '--index-url',
          'file:///idx/simple',
          '--only-binary',
          ':all:',
          'p==1',
        ],
      },
    ]);
    expect(pypiInstallCommands({ ...plan, uv: '/bin/uv', allowSdist: true })[1]!.args).not.toContain('--only-binary');
  });
  it('docker run: contained, no pull, env from a file only', () => {
    expect(ociRunArgs('ghcr.io/o/s@sha256:abc', '/tmp/idemscan-env-x/env', ['--stdio'])).toEqual([
      'run',
      '--rm',
      '-i',
      '--init',
      '--pull',
      'never',
      '--network',
      'none',
      '--security-opt',
      'no-new-privileges',
      '--cap-drop',
      'ALL',
      '--read-only',
      '--cpus',
      '1',
      '--memory',
      '2g',
      '--env-file',
      '/tmp/idemscan-env-x/env',
      'ghcr.io/o/s@sha256:abc',
      '--stdio',
    ]);
  });
});

describe('uvx', () => {
  const t = (args: string[]): CommandTarget => ({
    name: 'u',
    source: 's',
    kind: 'command',
    command: 'uvx',
    args,
  });
  it.each([
    [['pkg==1.2.3', '--x'], { pinned: 'pkg==1.2.3', bin: 'pkg', args: ['--x'] }],
    [['pkg@1.2.3'], { pinned: 'pkg==1.2.3', bin: 'pkg' }],
    [['--from', 'pkg==1.2.3', 'cmd', 'a'], { pinned: 'pkg==1.2.3', bin: 'cmd', args: ['a'] }],
    [['-i', 'https://idx.example/simple', 'pkg==1'], { pinned: 'pkg==1', index: 'https://idx.example/simple' }],
    [['pkg'], { pinned: undefined, spec: 'pkg' }],
  ])('reads uvx %j', (args, want) => {
    expect(readUvx('uvx', args)).toMatchObject(want);
  });
  it.each([[['--python', '3.12', 'pkg==1']], [['pkg[cli]==1']], [['--from', 'git+https://x', 'srv']], [['./local']]])(
    'leaves uvx %j as configured',
    (args) => {
      expect(pypiLaunchTargets([t(args)])[0]).toEqual(t(args));
    },
  );
  it('makes a pinned one a pypi target, and `uv tool run` too', () => {
    const [made] = pypiLaunchTargets([t(['pkg==1.2.3', '--x'])]);
    expect(made).not.toHaveProperty('command');
    expect(made).toMatchObject({
      kind: 'package',
      package: { type: 'pypi', spec: 'pkg==1.2.3', bin: 'pkg' },
      args: ['--x'],
      launcher: { runner: 'uvx', spec: 'pkg==1.2.3', resolved: false },
    });
    expect(pypiLaunchTargets([{ ...t(['tool', 'run', 'pkg==2']), command: 'uv' }])[0]).toMatchObject({
      package: { spec: 'pkg==2' },
    });
  });
});

describe('zip reading', () => {
  const limits = { maxEntries: 10, maxUnpackedBytes: 1000 };
  it.each(['/etc/passwd', 'a/../../x', '..', 'C:/x', 'a\\..\\x', 'a//b', './a'])(
    'refuses the entry name %j',
    (name) => {
      expect(entryNameProblem(name)).toBeDefined();
    },
  );
  it('reads an honest zip, and refuses links, lying sizes, too many entries and duplicates', () => {
    const ok = readZip(
      zip([
        { name: 'd/', data: '', mode: 0o040755 },
        { name: 'd/a.txt', data: 'hello', mode: 0o100755 },
      ]),
      limits,
    );
    expect(ok.map((e) => [e.name, e.directory, e.executable])).toEqual([
      ['d', true, true],
      ['d/a.txt', false, true],
    ]);
    expect(ok[1]!.data().toString()).toBe('hello');
    expect(() => readZip(zip([{ name: 'l', data: '/etc/passwd', mode: 0o120777 }]), limits)).toThrow(/a symbolic link/);
    expect(() => readZip(zip([{ name: 'big', data: 'x', declaredSize: 5000 }]), limits)).toThrow(
      /unpacks to more than 1000 bytes/,
    );
    expect(() => readZip(zip([{ name: 'small', data: 'xyz', declaredSize: 1 }]), limits)[0]!.data()).toThrow(
      /3 bytes, not the declared 1/,
    );
    expect(() => readZip(zip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: '' }))), limits)).toThrow(
      /11 entries, more than the 10 allowed/,
    );
    expect(() =>
      readZip(
        zip([
          { name: 'a', data: '1' },
          { name: 'a', data: '2' },
        ]),
        limits,
      ),
    ).toThrow(/given twice/);
    expect(() => readZip(Buffer.from('not a zip at all, really not'), limits)).toThrow(/not a zip file/);
  });
});

describe('bundle manifests', () => {
  const manifest = (mcp_config: Record<string, unknown>) => {
    const got = parseManifest(
      JSON.stringify({
        manifest_version: '0.2',
        name: 'b',
        version: '1',
        server: { type: 'binary', mcp_config },
        user_config: { key: { type: 'string', sensitive: true } },
      }),
    );
    if ('error' in got) throw new Error(got.error);
    return got.manifest;
  };
  it('fills ${__dirname} and user_config (fake for secrets), applies the linux override', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bundle-'));
    mkdirSync(path.join(dir, 'bin'));
    writeFileSync(path.join(dir, 'bin', 'srv'), '', { mode: 0o755 });
    const l = bundleLaunch(
      dir,
      manifest({
        command: '${__dirname}/bin/win.exe',
        args: ['--key', '${user_config.key}'],
        platform_overrides: { linux: { command: '${__dirname}/bin/srv' } },
      }),
    );
    expect(l).toMatchObject({
      command: path.join(dir, 'bin', 'srv'),
      args: ['--key', 'idemscan-fake-key'],
      fakeEnv: ['user_config.key'],
      readable: [dir],
    });
  });
  it('refuses a command outside the bundle, and a manifest without a server', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bundle-'));
    symlinkSync('/bin/sh', path.join(dir, 'sh'));
    expect(() => bundleLaunch(dir, manifest({ command: '${__dirname}/sh' }))).toThrow(/is outside the bundle/);
    expect(() => bundleLaunch(dir, manifest({ command: '${__dirname}/../../bin/sh' }))).toThrow(
      /is outside the bundle/,
    );
    expect(parseManifest(JSON.stringify({ name: 'b', version: '1' }))).toMatchObject({
      error: expect.stringMatching(/^manifest\.json\.server/),
    });
  });
  it('refuses loader variables in mcp_config.env and its overrides, naming the field', () => {
    const bundle = (mcp_config: Record<string, unknown>) =>
      parseManifest(JSON.stringify({ name: 'b', version: '1', server: { type: 'binary', mcp_config } }));
    expect(bundle({ command: 'x', env: { LD_PRELOAD: '${__dirname}/lib/evil.so' } })).toMatchObject({
      error: expect.stringMatching(
        /^manifest\.json\.server\.mcp_config\.env\.LD_PRELOAD: LD_PRELOAD steers the dynamic loader/,
      ),
    });
    expect(bundle({ command: 'x', platform_overrides: { linux: { env: { GCONV_PATH: '/x' } } } })).toMatchObject({
      error: expect.stringMatching(/platform_overrides\.linux\.env\.GCONV_PATH: GCONV_PATH steers/),
    });
    expect(bundle({ command: 'x', env: { API_KEY: 'k' } })).not.toHaveProperty('error');
  });
});

describe('interpreter prefixes', () => {
  it('binds a Python installation, never a home or a prefix a rewritten pyvenv.cfg names', () => {
    expect(prefixProblem('/root')).toMatch(/a home directory/);
    expect(prefixProblem('/')).toBeDefined();
    // A directory just made: not a home nor above one, wherever HOME is (a fresh clone's CI may put it under the temp directory).
    expect(prefixProblem(mkdtempSync(path.join(os.tmpdir(), 'idemscan-not-python-')))).toMatch(
      /not a Python installation/,
    );
    const venv = mkdtempSync(path.join(os.tmpdir(), 'idemscan-venv-'));
    mkdirSync(path.join(venv, 'bin'));
    symlinkSync('/usr/bin/python3', path.join(venv, 'bin', 'python'));
    writeFileSync(path.join(venv, 'pyvenv.cfg'), 'home = /root/.ssh\n');
    expect(venvPrefix(venv)).toMatchObject({
      error: expect.stringMatching(/pyvenv\.cfg's home \/root\/\.ssh is not where bin\/python points/),
    });
  });
});

describe('registry packages', () => {
  const env = {};
  const one = (pkg: Record<string, unknown>) =>
    parseTargets(JSON.stringify({ name: 'io.example/p', packages: [pkg] }), 'server.json', env);
  it('reads pypi with its index, mcpb with its hash, oci with its tag', () => {
    expect(
      one({ registryType: 'pypi', identifier: 'p', version: '1.0', registryBaseUrl: 'file:///srv/idx' }).targets[0],
    ).toMatchObject({ pypi: 'p==1.0', index: 'file:///srv/idx/simple' });
    expect(
      one({ registryType: 'mcpb', identifier: 'https://x.example/b.mcpb', fileSha256: 'A'.repeat(64) }).targets[0],
    ).toMatchObject({ mcpb: { url: 'https://x.example/b.mcpb', sha256: 'a'.repeat(64) } });
    expect(
      one({ registryType: 'oci', registryBaseUrl: 'https://ghcr.io', identifier: 'o/s', version: '1.0.0' }).targets[0],
    ).toMatchObject({ oci: 'ghcr.io/o/s:1.0.0' });
  });
  it('skips what is not pinned or not checkable, naming the field', () => {
    expect(one({ registryType: 'mcpb', identifier: 'https://x.example/b.mcpb' }).skipped[0]!.reason).toBe(
      'packages[0].fileSha256: missing: a bundle is downloaded only to be checked against its sha256 before it is unpacked',
    );
    expect(
      one({ registryType: 'mcpb', identifier: 'http://x.example/b.mcpb', fileSha256: 'a'.repeat(64) }).skipped[0]!
        .reason,
    ).toMatch(/^packages\[0\]\.identifier: .*http: is not https \(plain http only on loopback\)/);
    expect(one({ registryType: 'oci', identifier: 'o/s:latest' }).skipped[0]!.reason).toMatch(
      /^packages\[0\]\.identifier: "o\/s:latest": "latest" is not pinned/,
    );
    expect(
      one({ registryType: 'pypi', identifier: 'p', version: '1.0', registryBaseUrl: 'http://idx.example' }).skipped[0]!
        .reason,
    ).toMatch(/registryBaseUrl: .*http: is not https/);
  });
});

describe('install scripts build against the local Node headers', () => {
  it('names the prefix of a Node that ships include/node/node.h, and nothing for one without', () => {
    const prefix = mkdtempSync(path.join(os.tmpdir(), 'node-prefix-'));
    mkdirSync(path.join(prefix, 'bin'));
    const node = path.join(prefix, 'bin', 'node');
    expect(nodeHeaders(node)).toEqual({});
    mkdirSync(path.join(prefix, 'include', 'node'), { recursive: true });
    writeFileSync(path.join(prefix, 'include', 'node', 'node.h'), '');
    expect(nodeHeaders(node)).toEqual({ npm_config_nodedir: prefix });
  });
});
