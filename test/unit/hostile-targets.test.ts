// Target files and registry entries written to turn idemscan against its user (issue 8, item 6).
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_TARGET_FILE_BYTES } from '../../src/targets/load.js';
import { loadTargetFile, parseTargets } from '../../src/targets/published.js';
import { parsePinnedSpec } from '../../src/model/package-spec.js';
import { TargetFileError } from '../../src/targets/types.js';

const env = { HOME: '/home/u' };
/** Raw text on purpose: JSON.stringify of an object literal cannot write a `__proto__` key. */
const load = (text: string, file = 'hostile.json') => parseTargets(text, file, env);

describe('__proto__ and other prototype names', () => {
  it('a __proto__ field in our own format is an unknown field, not trust or a timeout', () => {
    const { targets, skipped } = load(`{ "servers": [
      { "name": "ok", "command": "node" },
      { "name": "evil", "command": "node", "__proto__": { "trusted": true, "timeout": 1, "timeoutMs": 1 } }
    ] }`);
    expect(targets.map((t) => [t.name, t.trusted, t.timeoutMs])).toEqual([['ok', undefined, undefined]]);
    expect(skipped).toEqual([
      { name: 'evil', source: 'hostile.json', reason: 'servers[1]: unknown field "__proto__"' },
    ]);
  });

  it('a __proto__ field in an mcpServers entry sets nothing (trusted, timeout, cwd, command)', () => {
    const { targets } = load(`{ "mcpServers": {
      "a": { "command": "node", "__proto__": { "trusted": true, "timeoutMs": 1, "timeout": 1, "cwd": "/etc", "args": ["x"] } },
      "b": { "__proto__": { "command": "sh" } }
    } }`);
    expect(targets).toHaveLength(1);
    expect(targets[0]).toEqual({
      name: 'a',
      source: 'hostile.json#mcpServers.a',
      kind: 'command',
      transport: 'stdio',
      command: 'node',
      listFolder: process.cwd(),
    });
    expect(targets[0]!.trusted).toBeUndefined();
    expect(targets[0]!.timeoutMs).toBeUndefined();
  });

  it.each(['mcpServers', 'servers'])(
    'a %s entry named __proto__, constructor or prototype is a server like any other',
    (key) => {
      const { targets, skipped } = load(`{ "${key}": {
      "__proto__": { "command": "node", "args": ["p.js"] },
      "constructor": { "command": "node", "args": ["c.js"] },
      "prototype": { "command": "node", "args": ["t.js"] }
    } }`);
      expect(skipped).toEqual([]);
      expect(targets.map((t) => [t.name, t.args, t.source])).toEqual([
        ['__proto__', ['p.js'], `hostile.json#${key}.__proto__`],
        ['constructor', ['c.js'], `hostile.json#${key}.constructor`],
        ['prototype', ['t.js'], `hostile.json#${key}.prototype`],
      ]);
    },
  );

  it('a top-level __proto__ is not a format', () => {
    expect(() => load('{ "__proto__": { "mcpServers": { "a": { "command": "node" } } } }')).toThrow(
      /hostile\.json: unknown format/,
    );
  });

  it('env and header names __proto__ and constructor are kept as names, and reach no prototype', () => {
    const { targets } = load(`{ "mcpServers": {
      "s": { "command": "node", "env": { "__proto__": "x", "constructor": "y", "A": "1" } },
      "h": { "url": "https://h.example.test/mcp", "headers": { "__proto__": "v", "X-Key": "k" } }
    } }`);
    expect(Object.entries(targets[0]!.env!)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['A', '1'],
    ]);
    expect(Object.entries(targets[1]!.headers!)).toEqual([
      ['__proto__', 'v'],
      ['X-Key', 'k'],
    ]);
    expect(Object.getPrototypeOf(targets[0]!.env)).not.toHaveProperty('A');
    expect(({} as Record<string, unknown>).A).toBeUndefined();
  });

  it('an env map whose __proto__ is an object is an error naming the field', () => {
    const { targets, skipped } = load(
      '{ "servers": [{ "name": "s", "command": "node", "env": { "__proto__": { "NODE_OPTIONS": "--require /tmp/x.js" } } }] }',
    );
    expect(targets).toEqual([]);
    expect(skipped[0]!.reason).toMatch(/^servers\[0\]\.env\.__proto__: .*expected string/);
  });
});

describe('pinned means an npm name and one exact semver version', () => {
  const npmEntry = (spec: string) =>
    load(
      JSON.stringify({
        servers: [
          { name: 'ok', command: 'node' },
          { name: 'p', npm: spec },
        ],
      }),
    );

  it.each([
    'x@1.0.0||*',
    'x@1.0.0 || 2.0.0',
    'file@1.0.0/../../evil.tgz',
    'x@1.0.0/../../evil.tgz',
    '../evil@1.0.0',
    '@s/../x@1.0.0',
    'a/b@1.0.0',
    '-x@1.0.0',
    '--prefix=/tmp@1.0.0',
    'X@1.0.0',
    '.x@1.0.0',
    '_x@1.0.0',
    'a..b@1.0.0',
    'x@v1.0.0',
    'x@ 1.0.0',
    'x@1.0.0 ',
    'x@=1.0.0',
    'x@latest',
    'x@^1.0.0',
    'x@01.0.0',
    'x@npm:y@1.0.0',
    'git+https://h.test/a/b@1.0.0',
    'https://h.test/x.tgz@1.0.0',
    'file:../x@1.0.0',
    '@1.0.0',
    'x@',
    'x',
    `${'a'.repeat(215)}@1.0.0`,
  ])('our own format refuses npm "%s" with the field named, and keeps the rest', (spec) => {
    const { targets, skipped } = npmEntry(spec);
    expect(targets.map((t) => t.name)).toEqual(['ok']);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ name: 'p', source: 'hostile.json' });
    expect(skipped[0]!.reason).toMatch(/^servers\[1\]\.npm: .*pinned, exact version/);
  });

  it.each([
    'x@1.0.0',
    '@scope/pkg@1.2.3',
    'a.b-c_d~e@0.0.1',
    'p@1.2.3-beta.1',
    'p@2.0.0+build.5',
    '@modelcontextprotocol/server-everything@2025.9.12',
  ])('accepts %s', (spec) => {
    expect(npmEntry(spec).targets[1]?.npm).toBe(spec);
  });

  it('parsePinnedSpec splits a good spec and says what is wrong with a bad one', () => {
    expect(parsePinnedSpec('@scope/pkg@1.2.3')).toEqual({ name: '@scope/pkg', version: '1.2.3' });
    expect(parsePinnedSpec('x@1.0.0||*')).toEqual({ error: expect.stringMatching(/^not an exact version/) });
    expect(parsePinnedSpec('../x@1.0.0')).toEqual({ error: expect.stringMatching(/^not an npm package name/) });
  });
});

describe('registry server.json', () => {
  const server = (extra: Record<string, unknown>) =>
    load(JSON.stringify({ name: 'io.example/p', ...extra }), 'server.json');
  const npmPackage = (extra: Record<string, unknown>) => ({
    registryType: 'npm',
    identifier: '@ex/p',
    version: '1.2.3',
    ...extra,
  });

  it.each([
    '../../evil',
    '../x',
    './local',
    '/abs/path',
    'file:../x',
    'https://h.test/x.tgz',
    '@ex/../../x',
    'git+ssh://h/x',
    'x@1.0.0',
    'UPPER',
  ])('skips the identifier %s: registry identifiers are npm package names', (identifier) => {
    const { targets, skipped } = server({ packages: [npmPackage({ identifier }), npmPackage({})] });
    expect(targets.map((t) => t.npm)).toEqual(['@ex/p@1.2.3']);
    expect(skipped[0]!.reason).toMatch(/^packages\[0\]\.identifier: .*not an npm package name/);
  });

  it.each(['1.0.0||*', '1.0.0/../../evil.tgz', 'v1.0.0', ' 1.0.0'])('skips the version %j', (version) => {
    const { targets, skipped } = server({ packages: [npmPackage({ version })] });
    expect(targets).toEqual([]);
    expect(skipped[0]!.reason).toMatch(/^packages\[0\]\.version: .* is not an exact version \(unpinned\)/);
  });

  it('skips a package declared on another registry: the same name on npmjs is another package', () => {
    const { targets, skipped } = server({
      packages: [
        npmPackage({ registryBaseUrl: 'https://npm.pkg.github.com' }),
        npmPackage({ registryBaseUrl: 'https://registry.npmjs.org/' }),
      ],
    });
    expect(targets).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(
      /^packages\[0\]\.registryBaseUrl: "https:\/\/npm\.pkg\.github\.com" is not https:\/\/registry\.npmjs\.org/,
    );
  });

  it('skips remotes that are not http(s), naming the field, and keeps the rest', () => {
    const urls = [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/plain,x',
      'ftp://h.test/x',
      'ws://h.test/mcp',
      'https://ok.example.test/mcp',
    ];
    const { targets, skipped } = server({ remotes: urls.map((url) => ({ type: 'streamable-http', url })) });
    expect(targets.map((t) => t.url)).toEqual(['https://ok.example.test/mcp']);
    expect(skipped.map((s) => s.reason)).toEqual([
      'remotes[0].url: "file:" URLs cannot be scanned (http or https only)',
      'remotes[1].url: "javascript:" URLs cannot be scanned (http or https only)',
      'remotes[2].url: "data:" URLs cannot be scanned (http or https only)',
      'remotes[3].url: "ftp:" URLs cannot be scanned (http or https only)',
      'remotes[4].url: "ws:" URLs cannot be scanned (http or https only)',
    ]);
  });

  it('a wrong type in a field idemscan uses skips that package with the field named; the load goes on', () => {
    const { targets, skipped } = server({
      packages: [
        npmPackage({ environmentVariables: [{ name: 5, isRequired: true }] }),
        npmPackage({ packageArguments: [{ type: 'positional', value: { $: 1 } }] }),
        npmPackage({ environmentVariables: [{ name: 'A=B', value: 'x' }] }),
        npmPackage({ environmentVariables: [{ name: '__proto__', value: 'kept' }] }),
      ],
      remotes: [{ url: 'https://r.example.test/mcp', headers: [{ name: 'X-A', value: 'a\r\nX-Injected: 1' }] }],
    });
    expect(skipped.map((s) => s.reason)).toEqual([
      'packages[0].environmentVariables[0].name: Invalid input: expected string, received number',
      'packages[1].packageArguments[0].value: Invalid input: expected string, received object',
      'packages[2].environmentVariables[0].name: an environment variable name cannot contain "=" or NUL',
      'remotes[0].headers[0].value: contains a line break or NUL',
    ]);
    expect(targets).toHaveLength(1);
    expect(Object.entries(targets[0]!.env!)).toEqual([['__proto__', 'kept']]);
  });

  it('packages or remotes that are not lists do not stop the load', () => {
    const { targets } = server({ packages: [npmPackage({})], remotes: 'https://h.test' });
    expect(targets.map((t) => t.npm)).toEqual(['@ex/p@1.2.3']);
  });
});

describe('launch fields', () => {
  it('our own format and mcpServers refuse non-http(s) urls with the field named', () => {
    const own = load(
      JSON.stringify({
        servers: [
          { name: 'f', url: 'file:///etc/passwd' },
          { name: 'j', url: 'javascript:alert(1)' },
        ],
      }),
    );
    expect(own.skipped.map((s) => s.reason)).toEqual([
      'servers[0].url: "file:" URLs cannot be scanned (http or https only)',
      'servers[1].url: "javascript:" URLs cannot be scanned (http or https only)',
    ]);
    const mcp = load(
      JSON.stringify({
        mcpServers: { d: { url: 'data:,x' }, w: { serverUrl: 'file:///x' }, g: { httpUrl: 'javascript:x' } },
      }),
    );
    expect(mcp.skipped.map((s) => s.reason)).toEqual([
      'mcpServers.d.url: "data:" URLs cannot be scanned (http or https only)',
      'mcpServers.w.serverUrl: "file:" URLs cannot be scanned (http or https only)',
      'mcpServers.g.httpUrl: "javascript:" URLs cannot be scanned (http or https only)',
    ]);
  });

  it.each([
    ['args with a NUL', { command: 'node', args: ['a\0b'] }, /^servers\[1\]\.args\[0\]: contains a NUL character/],
    ['a non-string arg', { command: 'node', args: [{ a: 1 }] }, /^servers\[1\]\.args\[0\]: .*expected string/],
    [
      'an env name with =',
      { command: 'node', env: { 'LD_PRELOAD=/tmp/x.so X': 'y' } },
      /^servers\[1\]\.env\.LD_PRELOAD=\/tmp\/x\.so X: .*cannot contain "="/,
    ],
    ['an env name with NUL', { command: 'node', env: { 'A\0B': 'y' } }, /^servers\[1\]\.env\.A\0B: .*NUL/],
    [
      'an empty env name',
      { command: 'node', env: { '': 'y' } },
      /^servers\[1\]\.env\.: empty environment variable name/,
    ],
    ['an env value with NUL', { command: 'node', env: { A: 'x\0y' } }, /^servers\[1\]\.env\.A: contains a NUL/],
    ['a cwd that is not a string', { command: 'node', cwd: ['/'] }, /^servers\[1\]\.cwd: .*expected string/],
    ['a command with NUL', { command: 'node\0' }, /^servers\[1\]\.command: contains a NUL/],
    [
      'a header name that is not a token',
      { url: 'https://h.example.test', headers: { 'X A': 'v' } },
      /^servers\[1\]\.headers\.X A: not a valid HTTP header name/,
    ],
    [
      'a header value with CRLF',
      { url: 'https://h.example.test', headers: { A: 'v\r\nX: 1' } },
      /^servers\[1\]\.headers\.A: contains a line break/,
    ],
    ['a bin that is a path', { npm: 'x@1.0.0', bin: '../../../bin/sh' }, /^servers\[1\]\.bin: a bin name, not a path/],
  ])('our own format refuses %s with the field named and keeps the rest', (_label, fields, reason) => {
    const { targets, skipped } = load(
      JSON.stringify({
        servers: [
          { name: 'ok', command: 'node' },
          { name: 'bad', ...fields },
        ],
      }),
    );
    expect(targets.map((t) => t.name)).toEqual(['ok']);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(reason);
  });

  it('mcpServers refuses an env name with = and an arg with NUL, and keeps the rest', () => {
    const { targets, skipped } = load(
      JSON.stringify({
        mcpServers: {
          ok: { command: 'node' },
          e: { command: 'node', env: { 'A=B': 'x' } },
          a: { command: 'node', args: ['x\0'] },
          c: { command: 'node', cwd: 7 },
        },
      }),
    );
    expect(targets.map((t) => t.name)).toEqual(['ok']);
    expect(skipped.map((s) => s.reason)).toEqual([
      'mcpServers.e.env.A=B: an environment variable name cannot contain "=" or NUL',
      'mcpServers.a.args[0]: contains a NUL character',
      'mcpServers.c.cwd: Invalid input: expected string, received number',
    ]);
  });
});

describe('the file itself', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-hostile-'));

  it('a file over the size bound is refused with its name, before it is parsed', async () => {
    const file = path.join(dir, 'huge.json');
    writeFileSync(file, `{"mcpServers":{"a":{"command":"node"}}}${' '.repeat(MAX_TARGET_FILE_BYTES)}`);
    await expect(loadTargetFile(file, env)).rejects.toThrow(
      new TargetFileError(file, 'larger than 16 MB; not read', 'too-large'),
    );
  });

  it.runIf(existsSync('/dev/zero'))(
    'an endless file (/dev/zero) is refused, not read until memory runs out',
    async () => {
      await expect(loadTargetFile('/dev/zero', env)).rejects.toThrow(
        /^\/dev\/zero: not a regular file \(a FIFO, socket or device\)/,
      );
    },
  );

  it('a directory is a file error, not a crash', async () => {
    await expect(loadTargetFile(dir, env)).rejects.toThrow(TargetFileError);
  });

  it('deep nesting is a file error naming the file, not a stack overflow', () => {
    const deep = `{"servers":${'['.repeat(200_000)}`;
    expect(() => load(deep)).toThrow(new TargetFileError('hostile.json', 'nested deeper than 64 levels', 'syntax'));
  });

  it('reads a file that starts with a byte order mark', () => {
    expect(load('\uFEFF{"mcpServers":{"a":{"command":"node"}}}').targets).toHaveLength(1);
  });
});
