import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTargetFiles, parseTargets } from '../../src/targets/published.js';
import { TargetFileError } from '../../src/targets/types.js';

const env = { HOME: '/home/u', GH_TOKEN: 'ghp_real', EMPTY: '' };

describe('our own list format', () => {
  it('reads command, url and npm entries', () => {
    const { targets, skipped } = parseTargets(
      JSON.stringify({
        servers: [
          { name: 'a', command: 'node', args: ['s.js'], env: { K: 'v' } },
          { name: 'b', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer x' } },
          { name: 'c', url: 'http://127.0.0.1:1/sse', transport: 'sse' },
          { name: 'd', npm: '@scope/pkg@1.2.3' },
        ],
      }),
      'list.json',
      env,
    );
    expect(skipped).toEqual([]);
    expect(targets.map((t) => [t.name, t.transport])).toEqual([
      ['a', 'stdio'],
      ['b', 'http'],
      ['c', 'sse'],
      ['d', 'stdio'],
    ]);
    expect(targets[3]).toMatchObject({ npm: '@scope/pkg@1.2.3' });
  });

  it('skips a bad entry with the file and field named, and keeps the rest', () => {
    const { targets, skipped } = parseTargets(
      JSON.stringify({
        servers: [
          { name: 'ok', command: 'x' },
          { name: 'bad', url: 'not a url' },
          { name: 'both', command: 'x', url: 'http://a' },
          { name: 'unpinned', npm: 'pkg' },
        ],
      }),
      'list.json',
      env,
    );
    expect(targets.map((t) => t.name)).toEqual(['ok']);
    expect(skipped.map((s) => s.name)).toEqual(['bad', 'both', 'unpinned']);
    expect(skipped[0]).toMatchObject({ source: 'list.json' });
    expect(skipped[0]!.reason).toMatch(/^servers\[1\]\.url: /);
    expect(skipped[2]!.reason).toMatch(/^servers\[3\]\.npm: .*pinned/);
  });

  it('entries with skip are listed as skipped with their reason', () => {
    const { skipped } = parseTargets(
      JSON.stringify({ servers: [{ name: 's', command: 'x', skip: 'needs docker' }] }),
      'f',
      env,
    );
    expect(skipped[0]!.reason).toBe('needs docker');
  });
});

describe('client configs', () => {
  it('reads Claude Desktop / Claude Code mcpServers with ${VAR} and ${VAR:-default}', () => {
    const { targets, skipped } = parseTargets(
      `{ // comment: .mcp.json files may have them
        "mcpServers": {
          "gh": { "command": "npx", "args": ["-y", "srv"], "env": { "TOKEN": "\${GH_TOKEN}" } },
          "remote": { "type": "http", "url": "\${API_BASE:-https://api.example.test}/mcp", "headers": { "X-Key": "\${GH_TOKEN}" } },
          "old": { "type": "sse", "url": "https://x.example.test/sse" },
          "missing": { "command": "x", "env": { "A": "\${NOT_SET}" } },
        } }`,
      '.mcp.json',
      env,
    );
    expect(targets.map((t) => [t.name, t.transport])).toEqual([
      ['gh', 'stdio'],
      ['remote', 'http'],
      ['old', 'sse'],
    ]);
    expect(targets[0]!.env).toEqual({ TOKEN: 'ghp_real' });
    expect(targets[1]!.url).toBe('https://api.example.test/mcp');
    expect(skipped).toEqual([
      {
        name: 'missing',
        source: '.mcp.json',
        reason:
          'mcpServers.missing.env.A: ${NOT_SET} is not expanded: idemscan reads into a target file only the environment variables --allow-env names (--allow-env NOT_SET, when you trust it with that value)',
        unexpanded: 'NOT_SET',
      },
    ]);
  });

  it('reads Cline transportType, Gemini httpUrl, and numbers or booleans where text is meant', () => {
    const { targets, skipped } = parseTargets(
      JSON.stringify({
        mcpServers: {
          cline: { transportType: 'sse', url: 'https://c.example.test/sse' },
          gemini: { httpUrl: 'https://g.example.test/mcp' },
          loose: { command: 'node', args: ['s.js', '--port', 8080], env: { DEBUG: true } },
        },
      }),
      'f',
      env,
    );
    expect(skipped).toEqual([]);
    expect(targets.map((t) => [t.name, t.transport, t.url ?? t.command])).toEqual([
      ['cline', 'sse', 'https://c.example.test/sse'],
      ['gemini', 'http', 'https://g.example.test/mcp'],
      ['loose', 'stdio', 'node'],
    ]);
    expect(targets[2]).toMatchObject({ args: ['s.js', '--port', '8080'], env: { DEBUG: 'true' } });
  });

  it('reads Windsurf serverUrl and Cursor url', () => {
    const { targets } = parseTargets(
      JSON.stringify({
        mcpServers: { w: { serverUrl: 'https://w.example.test/mcp' }, c: { url: 'https://c.example.test/mcp' } },
      }),
      'f',
      env,
    );
    expect(targets.map((t) => t.url)).toEqual(['https://w.example.test/mcp', 'https://c.example.test/mcp']);
  });

  it('reads VS Code servers objects', () => {
    const { targets, skipped } = parseTargets(
      JSON.stringify({
        servers: {
          fs: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/s.js'] },
          web: { type: 'http', url: 'https://v.example.test' },
          ask: { command: 'x', env: { K: '${input:key}' } },
        },
      }),
      '/proj/.vscode/mcp.json',
      env,
    );
    expect(targets.map((t) => t.name)).toEqual(['fs', 'web']);
    expect(targets[0]!.args).toEqual(['/proj/s.js']);
    expect(skipped[0]!.reason).toMatch(/servers\.ask\.env\.K: .*VS Code input/);
  });
});

describe('registry server.json', () => {
  it('maps npm packages, fake secrets and remotes; skips other package types', () => {
    const { targets, skipped } = parseTargets(
      JSON.stringify({
        name: 'io.example/weather',
        version: '1.0.0',
        packages: [
          {
            registryType: 'npm',
            identifier: '@ex/weather',
            version: '1.0.0',
            transport: { type: 'stdio' },
            packageArguments: [{ type: 'named', name: '--units', value: 'metric' }],
            environmentVariables: [{ name: 'WEATHER_API_KEY', isSecret: true, isRequired: true }, { name: 'OPTIONAL' }],
          },
          {
            registryType: 'pypi',
            identifier: 'weather',
            version: '1.0.0',
            environmentVariables: [{ name: 'PY_TOKEN', isSecret: true }],
          },
          { registryType: 'nuget', identifier: 'Weather', version: '1.0.0' },
          { registryType: 'cargo', identifier: 'weather', version: '1.0.0' },
        ],
        remotes: [{ type: 'streamable-http', url: 'https://weather.example.test/mcp' }],
      }),
      'server.json',
      env,
    );
    expect(targets[0]).toMatchObject({
      npm: '@ex/weather@1.0.0',
      args: ['--units', 'metric'],
      env: { WEATHER_API_KEY: 'idemscan-fake-weather_api_key' },
      fakeEnv: ['WEATHER_API_KEY'],
    });
    expect(targets[1]).toMatchObject({
      transport: 'stdio',
      pypi: 'weather==1.0.0',
      env: { PY_TOKEN: 'idemscan-fake-py_token' },
      fakeEnv: ['PY_TOKEN'],
    });
    expect(targets[1]!.index).toBeUndefined();
    expect(targets[2]).toMatchObject({ transport: 'http', url: 'https://weather.example.test/mcp' });
    expect(skipped.map((s) => s.reason)).toEqual([
      'packages[2]: registry type "nuget" is not launched by idemscan (npm, pypi, mcpb, oci only)',
      'packages[3]: registry type "cargo" is not launched by idemscan (npm, pypi, mcpb, oci only)',
    ]);
  });

  const npmPackage = (extra: Record<string, unknown>) => ({
    registryType: 'npm',
    identifier: '@ex/p',
    version: '1.2.3',
    ...extra,
  });
  const one = (pkg: Record<string, unknown>) =>
    parseTargets(JSON.stringify({ name: 'io.example/p', packages: [pkg] }), 'server.json', env);

  it.each(['^1.2.0', 'latest', '>=1', '1.x', '~1.2.3', '1.2', '*'])(
    'skips an npm package with the unpinned version %s',
    (version) => {
      const { targets, skipped } = one(npmPackage({ version }));
      expect(targets).toEqual([]);
      expect(skipped[0]!.reason).toBe(
        `packages[0].version: ${JSON.stringify(version)} is not an exact version (unpinned); idemscan launches pinned packages only`,
      );
    },
  );

  it.each(['1.2.3', '0.6.2-beta.1', '2.0.0+build.5'])(
    'launches an npm package with the exact version %s',
    (version) => {
      expect(one(npmPackage({ version })).targets[0]?.npm).toBe(`@ex/p@${version}`);
    },
  );

  it('replaces templated argument values: the default if plain, a placeholder if required, else nothing', () => {
    const { targets } = one(
      npmPackage({
        packageArguments: [
          { type: 'positional', value: '{dir}', default: '/tmp' },
          { type: 'named', name: '--root', value: '{root_dir}', isRequired: true },
          { type: 'named', name: '--config', value: '{config}' },
          { type: 'positional', value: 'x{y}', default: '{y}', isRequired: true },
          { type: 'positional', default: '{optional}' },
          { type: 'named', name: '--port', value: '8080' },
          { type: 'positional', valueHint: 'directory', isRequired: true },
        ],
      }),
    );
    expect(targets[0]!.args).toEqual([
      '/tmp',
      '--root',
      'idemscan-placeholder',
      'idemscan-placeholder',
      '--port',
      '8080',
      'idemscan-placeholder',
    ]);
  });

  it('names the field with servers[i].server. in a registry list response', () => {
    const entry = (name: string, server: Record<string, unknown>) => ({ server: { name, ...server }, _meta: {} });
    const { targets, skipped } = parseTargets(
      JSON.stringify({
        servers: [
          entry('io.example/ok', { packages: [npmPackage({})] }),
          entry('io.example/range', { packages: [npmPackage({ version: '^1.2.0' })] }),
          entry('io.example/py', { packages: [{ registryType: 'pypi', identifier: 'p', version: '>=1.0' }] }),
          entry('io.example/remote', {
            remotes: [{ type: 'streamable-http', url: 'https://{tenant}.example.test/mcp' }],
          }),
          { server: { packages: [] } },
        ],
      }),
      'registry.json',
      env,
    );
    expect(targets.map((t) => t.name)).toEqual(['io.example/ok']);
    expect(skipped.map((s) => s.reason)).toEqual([
      'servers[1].server.packages[0].version: "^1.2.0" is not an exact version (unpinned); idemscan launches pinned packages only',
      'servers[2].server.packages[0].version: ">=1.0" is not an exact PEP 440 version (unpinned); idemscan launches pinned packages only',
      'servers[3].server.remotes[0].url: missing, templated or not a URL',
      'servers[4].server: not a server.json',
    ]);
  });
});

describe('file errors', () => {
  it('names the file and the position of a JSON error', () => {
    expect(() => parseTargets('{ "servers": [ }', 'broken.json', env)).toThrow(TargetFileError);
    expect(() => parseTargets('{ "servers": [ }', 'broken.json', env)).toThrow(
      /broken\.json: not valid JSON at line 1/,
    );
  });
  it('names the file when the shape is unknown', () => {
    expect(() => parseTargets('{"hello": 1}', 'odd.json', env)).toThrow(/odd\.json: unknown format/);
  });
});

describe('several files', () => {
  it('keeps servers of the same name apart, however many there are', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-names-'));
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    writeFileSync(a, JSON.stringify({ mcpServers: { gh: { command: 'x' } } }));
    writeFileSync(b, JSON.stringify({ servers: [{ name: 'gh', command: 'y' }], mcpServers: undefined }));
    const { targets } = await loadTargetFiles([a, b, b], env);
    expect(targets.map((t) => t.name)).toEqual(['gh', 'gh (b.json)', 'gh (b.json) #2']);
  });
});
