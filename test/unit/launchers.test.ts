/** Package runners in client configs, read by each runner's own grammar; anything unsure stays as it was. */
import { describe, expect, it } from 'vitest';
import { npmLaunchOf, parseNpmSpec, pypiLaunchOf } from '../../src/launch/launchers.js';
import { npmLaunchTargets, pickVersion } from '../../src/launch/npm-launch.js';
import { pypiLaunchTargets, pypiProblem } from '../../src/launch/pypi-launch.js';
import type { Target } from '../../src/targets/types.js';

const launch = (line: string) => {
  const [command, ...args] = line.split(' ');
  const got = npmLaunchOf(command!, args);
  return (
    got && { runner: got.runner, name: got.name, version: got.version, range: got.range, bin: got.bin, args: got.args }
  );
};

describe('npx', () => {
  it.each([
    [
      'npx -y @modelcontextprotocol/server-filesystem@2026.1.14 /data /tmp',
      { name: '@modelcontextprotocol/server-filesystem', version: '2026.1.14', args: ['/data', '/tmp'] },
    ],
    ['npx --yes pkg@1.2.3', { name: 'pkg', version: '1.2.3', args: [] }],
    ['npx pkg', { name: 'pkg', range: 'latest', args: [] }],
    ['npx -y pkg@latest --port 3000', { name: 'pkg', range: 'latest', args: ['--port', '3000'] }],
    ['npx -y pkg@^1 -y', { name: 'pkg', range: '^1', args: ['-y'] }],
    ['npx -y -- pkg@1.0.0 --flag', { name: 'pkg', version: '1.0.0', args: ['--flag'] }],
    ['npx -q --prefer-offline pkg@next', { name: 'pkg', range: 'next', args: [] }],
    ['npx --loglevel error pkg@1.0.0', { name: 'pkg', version: '1.0.0', args: [] }],
    [
      'npx -y --package @scope/tools@2.0.0 tools-server a',
      { name: '@scope/tools', version: '2.0.0', bin: 'tools-server', args: ['a'] },
    ],
    ['npx -y --package=@scope/tools@2.0.0 tools', { name: '@scope/tools', version: '2.0.0', bin: undefined, args: [] }],
    ['/usr/local/bin/npx -y pkg@1.0.0', { name: 'pkg', version: '1.0.0', args: [] }],
    ['npx.cmd -y pkg@1.0.0', { name: 'pkg', version: '1.0.0', args: [] }],
  ])('%s', (line, expected) => {
    expect(launch(line)).toEqual({ runner: 'npx', version: undefined, range: undefined, bin: undefined, ...expected });
  });

  it.each([
    'npx',
    'npx -y',
    'npx -c some-command', // a shell command
    'npx --call=x pkg',
    'npx --registry https://evil.example pkg@1.0.0', // another registry: another package
    'npx -p a@1.0.0 -p b@1.0.0 a', // two packages
    'npx -p pkg@1.0.0 ./bin.js', // a path as the bin
    'npx ./local-dir',
    'npx github:user/repo',
    'npx https://example.com/pkg.tgz',
    'npx pkg@file:../x.tgz',
    'npx alias@npm:other@1.0.0',
    'npx Pkg-Upper@1.0.0',
    'npx -y --package',
  ])('leaves %s as it was', (line) => {
    expect(launch(line)).toBeUndefined();
  });
});

describe('the other runners', () => {
  it.each([
    ['npm exec -y pkg@1.0.0 -- --port 1', { runner: 'npm exec', name: 'pkg', version: '1.0.0', args: ['--port', '1'] }],
    ['npm exec -y -- pkg@1.0.0 --port 1', { runner: 'npm exec', name: 'pkg', version: '1.0.0', args: ['--port', '1'] }],
    ['npm x --yes pkg@1.0.0 a b', { runner: 'npm exec', name: 'pkg', version: '1.0.0', args: ['a', 'b'] }],
    [
      'npm exec --package=pkg@1.0.0 -- other-bin x',
      { runner: 'npm exec', name: 'pkg', version: '1.0.0', bin: 'other-bin', args: ['x'] },
    ],
    ['pnpm dlx pkg@1.0.0 --port 1', { runner: 'pnpm dlx', name: 'pkg', version: '1.0.0', args: ['--port', '1'] }],
    ['pnpm --silent dlx pkg', { runner: 'pnpm dlx', name: 'pkg', range: 'latest', args: [] }],
    [
      'pnpm dlx --package=@s/p@1.0.0 p-bin',
      { runner: 'pnpm dlx', name: '@s/p', version: '1.0.0', bin: 'p-bin', args: [] },
    ],
    ['pnpx pkg@~1.2', { runner: 'pnpm dlx', name: 'pkg', range: '~1.2', args: [] }],
    ['bunx pkg@1.0.0 --stdio', { runner: 'bunx', name: 'pkg', version: '1.0.0', args: ['--stdio'] }],
    ['bun x --silent pkg@1.0.0', { runner: 'bunx', name: 'pkg', version: '1.0.0', args: [] }],
    ['yarn dlx -q pkg@1.0.0 x', { runner: 'yarn dlx', name: 'pkg', version: '1.0.0', args: ['x'] }],
    ['yarn dlx -p pkg@1.0.0 pkg-cli', { runner: 'yarn dlx', name: 'pkg', version: '1.0.0', bin: 'pkg-cli', args: [] }],
  ])('%s', (line, expected) => {
    expect(launch(line)).toEqual({ version: undefined, range: undefined, bin: undefined, ...expected });
  });

  it.each([
    'npm exec -y pkg@1.0.0 --port 1', // npm reads --port as its own flag without `--`
    'npm install pkg',
    'npm start',
    'pnpm dlx -c "pkg --x"', // shell mode
    'pnpm install',
    'bunx --bun pkg@1.0.0', // Bun's runtime, not node
    'bun run server.ts',
    'yarn dlx',
    'yarn start',
    'node server.js',
    'docker run -i mcp/fetch',
  ])('leaves %s as it was', (line) => {
    expect(launch(line)).toBeUndefined();
  });
});

describe('package specs and versions', () => {
  it('reads names, exact versions, ranges and tags, and nothing else', () => {
    expect(parseNpmSpec('@a/b@1.0.0')).toEqual({ name: '@a/b', version: '1.0.0' });
    expect(parseNpmSpec('@a/b')).toEqual({ name: '@a/b', range: 'latest' });
    expect(parseNpmSpec('b@>=1 <2')).toEqual({ name: 'b', range: '>=1 <2' });
    expect(parseNpmSpec('b@v1.0.0')).toEqual({ name: 'b', range: 'v1.0.0' });
    for (const bad of ['b@../x', 'b@git+ssh://x', '@a', '-b@1.0.0', 'b@1.0.0/../../x', '..@1.0.0'])
      expect(parseNpmSpec(bad)).toBeUndefined();
  });

  it('picks the version npm would: a tag names it; a range takes latest when it fits, else the highest match', () => {
    const meta = {
      versions: ['1.0.0', '1.1.0', '1.2.0', '2.0.0-beta.1'],
      distTags: { latest: '1.1.0', next: '2.0.0-beta.1' },
    };
    expect(pickVersion(meta, 'latest')).toBe('1.1.0');
    expect(pickVersion(meta, 'next')).toBe('2.0.0-beta.1');
    expect(pickVersion(meta, '^1')).toBe('1.1.0');
    expect(pickVersion(meta, '>=1.2')).toBe('1.2.0');
    expect(pickVersion(meta, '^3')).toBeUndefined();
    expect(pickVersion(meta, 'constructor')).toBeUndefined();
  });
});

describe('targets', () => {
  const t = (command: string, args: string[]): Target => ({
    name: 'fs',
    source: 'c.json#mcpServers.fs',
    kind: 'command',
    command,
    args,
    env: { A: '1' },
  });

  it('become npm-package targets under the name the config gave, with what the config said', () => {
    const [pinned, unpinned, plain] = npmLaunchTargets([
      t('npx', ['-y', 'pkg@1.0.0', '/data']),
      t('npx', ['-y', 'pkg']),
      t('node', ['s.js']),
    ]);
    expect(pinned).toMatchObject({
      name: 'fs',
      kind: 'package',
      package: { type: 'npm', spec: 'pkg@1.0.0' },
      args: ['/data'],
      env: { A: '1' },
      launcher: { runner: 'npx', spec: 'pkg@1.0.0', resolved: false },
    });
    expect(pinned).not.toHaveProperty('command');
    expect(unpinned).toMatchObject({ package: { spec: 'pkg@latest' }, launcher: { spec: 'pkg', resolved: true } });
    expect(plain).toEqual(t('node', ['s.js']));
  });

  it('names the PyPI package of a uvx server', () => {
    expect(pypiLaunchOf('uvx', ['mcp-server-fetch', '--x'])).toEqual({ runner: 'uvx', spec: 'mcp-server-fetch' });
    expect(pypiLaunchOf('uvx', ['--python', '3.12', '--from', 'git+https://x', 'srv'])).toEqual({
      runner: 'uvx',
      spec: 'git+https://x',
    });
    expect(pypiLaunchOf('uv', ['tool', 'run', 'mcp-server-git'])).toEqual({ runner: 'uvx', spec: 'mcp-server-git' });
    expect(pypiLaunchOf('uv', ['run', 'server.py'])).toBeUndefined();
    // Unpinned, it becomes a package whose version the index picks (pypi-resolve.ts), as npx entries are.
    expect(pypiLaunchTargets([t('uvx', ['mcp-server-fetch@latest', '--x'])])[0]).toMatchObject({
      kind: 'package',
      args: ['--x'],
      package: { type: 'pypi', spec: 'mcp-server-fetch', bin: 'mcp-server-fetch' },
      launcher: { runner: 'uvx', spec: 'mcp-server-fetch@latest', resolved: true },
    });
    expect(pypiProblem(t('uvx', ['--index-url', 'http://index.example/simple', 'x==1.0.0']))).toMatch(
      /^uvx x==1\.0\.0: its index http:\/\/index\.example\/simple is not one idemscan reads/,
    );
    expect(pypiProblem(t('uvx', ['--python', '3.12', '--from', 'git+https://x', 'srv']))).toMatch(
      /^uvx git\+https:\/\/x: idemscan cannot read this uvx command line/,
    );
  });
});
