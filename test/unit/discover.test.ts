import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENTS,
  discover,
  identity,
  locations,
  mergeTargets,
  type FoundTarget,
} from '../../src/targets/discover/index.js';
import { dirsFor } from '../../src/targets/discover/dirs.js';
import { parseDocument } from '../../src/targets/discover/parse.js';
import { readDocument } from '../../src/targets/discover/readers.js';
import type { ReaderId } from '../../src/targets/discover/clients.js';
import type { TargetInput } from '../../src/targets/types.js';
import { inputOf, toTarget } from '../../src/targets/kind.js';
import { discoverHome, emptyHome, type DiscoverHome } from '../helpers/discover-home.js';

const where = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string, project?: string) =>
  locations(dirsFor({ home, project, platform, env })).map((l) => `${l.client.id} ${l.scope} ${l.path}`);

describe('client table', () => {
  it('has fifteen or more clients, each with a source and a user-level file', () => {
    expect(CLIENTS.length).toBeGreaterThanOrEqual(15);
    for (const c of CLIENTS) {
      expect(c.source, c.name).toMatch(/^https:\/\//);
      expect(
        c.files.some((f) => f.scope === 'user'),
        c.name,
      ).toBe(true);
    }
    expect(new Set(CLIENTS.map((c) => c.id)).size).toBe(CLIENTS.length);
  });

  it('is documented in docs/DISCOVER.md: every client with its source and its Linux files', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/DISCOVER.md', import.meta.url)), 'utf8');
    const d = dirsFor({ home: '~', project: '.', platform: 'linux', env: {} });
    for (const c of CLIENTS) {
      expect(doc, c.name).toContain(`### ${c.name}\n\nSource: ${c.source}\n`);
      for (const f of c.files) expect(doc, c.name).toContain(`\`${f.at(d)}`);
    }
  });

  it('knows the Linux places, XDG_CONFIG_HOME honoured', () => {
    const got = where('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/u', '/work/app');
    expect(got).toContain('claude-desktop user /x/cfg/Claude/claude_desktop_config.json');
    expect(got).toContain('vscode user /x/cfg/Code/User/mcp.json');
    expect(got).toContain(
      'cline user /x/cfg/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    );
    expect(got).toContain('zed user /x/cfg/zed/settings.json');
    expect(got).toContain('goose user /x/cfg/goose/config.yaml');
    expect(got).toContain('claude-code user /home/u/.claude.json');
    expect(got).toContain('claude-code project /work/app/.mcp.json');
    expect(got).toContain('codex project /work/app/.codex/config.toml');
    // A relative XDG_CONFIG_HOME is ignored, as the spec says.
    expect(where('linux', { XDG_CONFIG_HOME: 'rel' }, '/home/u')).toContain(
      'zed user /home/u/.config/zed/settings.json',
    );
  });

  it('knows the macOS places', () => {
    const got = where('darwin', {}, '/Users/u');
    expect(got).toContain('claude-desktop user /Users/u/Library/Application Support/Claude/claude_desktop_config.json');
    expect(got).toContain('vscode user /Users/u/Library/Application Support/Code/User/mcp.json');
    expect(got).toContain(
      'vscode-insiders user /Users/u/Library/Application Support/Code - Insiders/User/settings.json',
    );
    expect(got).toContain(
      'roo-code user /Users/u/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json',
    );
    expect(got).toContain('zed user /Users/u/.config/zed/settings.json');
    expect(got).toContain('goose user /Users/u/.config/goose/config.yaml');
    expect(got).toContain('cursor user /Users/u/.cursor/mcp.json');
    // No project given: no project-level files.
    expect(got.some((l) => l.includes(' project '))).toBe(false);
  });

  it('knows the Windows places, from APPDATA and the variables that move a client', () => {
    const env = { APPDATA: 'D:\\Roaming', CODEX_HOME: 'E:\\codex', CLAUDE_CONFIG_DIR: 'E:\\claude' };
    const got = where('win32', env, 'C:\\Users\\u', 'C:\\src\\app');
    expect(got).toContain('claude-desktop user D:\\Roaming\\Claude\\claude_desktop_config.json');
    expect(got).toContain('vscode user D:\\Roaming\\Code\\User\\mcp.json');
    expect(got).toContain(
      'cline user D:\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json',
    );
    expect(got).toContain('zed user D:\\Roaming\\Zed\\settings.json');
    expect(got).toContain('goose user D:\\Roaming\\Block\\goose\\config\\config.yaml');
    expect(got).toContain('codex user E:\\codex\\config.toml');
    expect(got).toContain('claude-code user E:\\claude\\.claude.json');
    expect(got).toContain('windsurf user C:\\Users\\u\\.codeium\\windsurf\\mcp_config.json');
    expect(got).toContain('opencode user C:\\Users\\u\\.config\\opencode\\opencode.json');
    expect(got).toContain('vscode project C:\\src\\app\\.vscode\\mcp.json');
    // Without APPDATA: the default Roaming folder.
    expect(where('win32', {}, 'C:\\Users\\u')).toContain(
      'claude-desktop user C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
  });

  it('lists a path two clients share once (the project folder is HOME)', () => {
    const got = where('linux', {}, '/home/u', '/home/u');
    expect(got.filter((l) => l.endsWith('/home/u/.cursor/mcp.json'))).toHaveLength(1);
  });
});

/** Reads one document of `syntax` with `reader`, as discover() does; its targets flat. */
function read(reader: ReaderId, text: string, syntax: 'json' | 'toml' | 'yaml' = 'json', env: NodeJS.ProcessEnv = {}) {
  const parsed = parseDocument(text, syntax);
  if ('error' in parsed) throw new Error(parsed.error);
  const got = readDocument(reader, parsed.value, {
    file: '/f',
    env,
    projectCtx: { file: '/f', env: {}, untrusted: 'a project-scope config' },
  });
  return { ...got, targets: got.targets.map(inputOf) };
}

describe('readers', () => {
  it('Codex: stdio and HTTP servers, variables by name, disabled and bad entries skipped with the field', () => {
    const got = read(
      'codex',
      [
        '[mcp_servers.fs]',
        'command = "npx"',
        'args = ["-y", "server-fs", 8080]',
        'env = { DEBUG = true }',
        'env_vars = ["HOME_TOKEN"]',
        '[mcp_servers.api]',
        'url = "https://api.example.com/mcp"',
        'bearer_token_env_var = "API_TOKEN"',
        'http_headers = { "X-Org" = "acme" }',
        '[mcp_servers.off]',
        'command = "x"',
        'enabled = false',
        '[mcp_servers.both]',
        'command = "x"',
        'url = "https://x"',
        '[mcp_servers.nul]',
        'command = "a\\u0000b"',
        '[mcp_servers.nokey]',
        'url = "https://x"',
        'bearer_token_env_var = "UNSET_TOKEN"',
      ].join('\n'),
      'toml',
      { API_TOKEN: 'tok-123', HOME_TOKEN: 'h' },
    );
    const fs = got.targets.find((t) => t.name === 'fs')!;
    expect(fs).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'server-fs', '8080'],
      source: '/f#mcp_servers.fs',
    });
    expect({ ...fs.env }).toEqual({ DEBUG: 'true', HOME_TOKEN: 'h' });
    const api = got.targets.find((t) => t.name === 'api')!;
    expect(api).toMatchObject({ transport: 'http', url: 'https://api.example.com/mcp' });
    expect({ ...api.headers }).toEqual({ 'X-Org': 'acme', Authorization: 'Bearer tok-123' });
    expect(api.secrets).toContain('tok-123');
    const reasons = Object.fromEntries(got.skipped.map((s) => [s.name, s.reason]));
    expect(reasons.off).toBe('mcp_servers.off.enabled: the entry is disabled');
    expect(reasons.both).toContain('exactly one of "command" or "url"');
    expect(reasons.nul).toBe('mcp_servers.nul.command: contains a NUL character');
    expect(reasons.nokey).toBe('mcp_servers.nokey.bearer_token_env_var: UNSET_TOKEN is not set in the environment');
  });

  it('Zed: flat and nested commands, remote servers; extension-provided servers are skipped with the reason', () => {
    const got = read(
      'zed',
      `{
        // Zed's settings are JSON with comments
        "context_servers": {
          "flat": { "source": "custom", "command": "uvx", "args": ["mcp-server-time"], "env": {} },
          "nested": { "command": { "path": "/usr/bin/node", "args": ["s.js"], "env": { "A": "1" } } },
          "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer x" } },
          "ext": { "source": "extension", "settings": {} },
          "bad": { "command": 42 },
        },
      }`,
    );
    expect(got.targets.map((t) => [t.name, t.transport, t.command ?? t.url, t.args])).toEqual([
      ['flat', 'stdio', 'uvx', ['mcp-server-time']],
      ['nested', 'stdio', '/usr/bin/node', ['s.js']],
      ['remote', 'http', 'https://mcp.example.com/mcp', undefined],
    ]);
    expect(got.skipped.map((s) => s.reason)).toEqual([
      'context_servers.ext: started by a Zed extension; its command is not in the settings',
      expect.stringContaining('context_servers.bad.command'),
    ]);
  });

  it('Continue: the YAML list, transports, hub blocks; a JSON block file is read as mcpServers', () => {
    const got = read(
      'continue',
      [
        'mcpServers:',
        '  - name: sqlite',
        '    command: npx',
        '    args: ["-y", "mcp-sqlite", "/tmp/db"]',
        '  - name: remote',
        '    type: sse',
        '    url: https://x.example.com/sse',
        '    requestOptions: { headers: { Authorization: Bearer y } }',
        '  - uses: anthropic/memory-mcp',
        '  - name: nothing',
      ].join('\n'),
      'yaml',
    );
    expect(got.targets.map((t) => [t.name, t.transport, t.source])).toEqual([
      ['sqlite', 'stdio', '/f#mcpServers[0]'],
      ['remote', 'sse', '/f#mcpServers[1]'],
    ]);
    expect(got.skipped.map((s) => s.reason)).toEqual([
      'mcpServers[2].uses: a Continue Hub block; its launch is not in this file',
      expect.stringContaining('mcpServers[3]'),
    ]);
    expect(read('continue', '{"mcpServers": {"a": {"command": "x"}}}').targets[0]).toMatchObject({
      name: 'a',
      command: 'x',
    });
  });

  it('Goose: stdio and remote extensions; built-in ones are not servers; disabled and incomplete ones skipped', () => {
    const got = read(
      'goose',
      [
        'extensions:',
        '  developer: { type: builtin, name: developer, enabled: true }',
        '  github: { type: stdio, cmd: npx, args: [-y, "@modelcontextprotocol/server-github"], envs: { GITHUB_TOKEN: x }, enabled: true }',
        '  remote: { type: streamable_http, uri: "https://mcp.example.com/mcp", enabled: true }',
        '  old: { type: sse, uri: "https://old.example.com/sse", enabled: true }',
        '  off: { type: stdio, cmd: x, enabled: false }',
        '  nocmd: { type: stdio, enabled: true }',
        '  bad: { type: stdio, cmd: x, uri: "file:///etc/passwd", args: [{a: 1}] }',
      ].join('\n'),
      'yaml',
    );
    expect(got.targets.map((t) => [t.name, t.transport])).toEqual([
      ['github', 'stdio'],
      ['remote', 'http'],
      ['old', 'sse'],
    ]);
    expect(got.skipped.map((s) => s.reason)).toEqual([
      'extensions.off.enabled: the entry is disabled',
      'extensions.nocmd.type: "stdio" needs "cmd"',
      expect.stringContaining('extensions.bad.args[0]'),
    ]);
  });

  it('OpenCode: V1 entries under mcp, V2 under mcp.servers, command arrays', () => {
    const v1 = read(
      'opencode',
      '{"mcp": {"fs": {"type": "local", "command": ["npx", "-y", "fs"], "environment": {"A": "1"}}, "r": {"type": "remote", "url": "https://r.example.com/mcp", "enabled": false}, "e": {"type": "local", "command": [""]}}}',
    );
    expect(v1.targets.map((t) => [t.name, t.command, t.args])).toEqual([['fs', 'npx', ['-y', 'fs']]]);
    expect(v1.skipped.map((s) => s.reason)).toEqual([
      'mcp.r.enabled: the entry is disabled',
      expect.stringContaining('mcp.e.command'),
    ]);
    const v2 = read(
      'opencode',
      '{"mcp": {"servers": {"r": {"type": "remote", "url": "https://r.example.com/mcp"}, "d": {"type": "local", "command": ["x"], "disabled": true}}}}',
    );
    expect(v2.targets.map((t) => [t.name, t.transport, t.source])).toEqual([['r', 'http', '/f#mcp.servers.r']]);
    expect(v2.skipped[0]!.reason).toBe('mcp.servers.d.disabled: the entry is disabled');
  });

  it("Claude Code: user servers and every project's, the field path naming the project", () => {
    const got = read(
      'claudeCode',
      JSON.stringify({
        mcpServers: { u: { command: 'a' } },
        projects: { '/p/one': { mcpServers: { p: { command: 'b' }, bad: { command: 1 } } }, '/p/two': {} },
      }),
    );
    expect(got.targets.map((t) => [t.name, t.source])).toEqual([
      ['u', '/f#mcpServers.u'],
      ['p', '/f#projects["/p/one"].mcpServers.p'],
    ]);
    expect(got.skipped[0]!.reason).toMatch(/^projects\["\/p\/one"\]\.mcpServers\.bad\.command/);
  });

  it('VS Code settings.json: mcp.servers; Gemini: a bare url is SSE, httpUrl Streamable HTTP', () => {
    const vs = read(
      'vscodeSettings',
      '{"editor.tabSize": 2, "mcp": {"servers": {"s": {"type": "stdio", "command": "x"}, "b": {"url": "ftp://x"}}}}',
    );
    expect(vs.targets.map((t) => t.source)).toEqual(['/f#mcp.servers.s']);
    expect(vs.skipped[0]!.reason).toBe('mcp.servers.b.url: "ftp:" URLs cannot be scanned (http or https only)');
    const gem = read(
      'gemini',
      '{"mcpServers": {"old": {"url": "https://a.example.com/sse"}, "new": {"httpUrl": "https://a.example.com/mcp"}}}',
    );
    expect(gem.targets.map((t) => [t.name, t.transport])).toEqual([
      ['old', 'sse'],
      ['new', 'http'],
    ]);
  });

  it('a file without servers holds none; a section of the wrong type is an error', () => {
    expect(read('mcpServers', '{"theme": "dark"}').targets).toEqual([]);
    expect(read('gemini', '').targets).toEqual([]);
    expect(read('goose', '', 'yaml').targets).toEqual([]);
    expect(() => read('mcpServers', '{"mcpServers": []}')).toThrow('"mcpServers" is not an object');
    expect(() => read('mcpServers', '[1]')).toThrow('expected an object');
  });

  it('keys named __proto__ are names, never prototypes, in JSON, TOML and YAML', () => {
    for (const [reader, text, syntax] of [
      ['mcpServers', '{"mcpServers": {"__proto__": {"command": "a", "env": {"__proto__": "v"}}}}', 'json'],
      ['codex', '[mcp_servers.__proto__]\ncommand = "a"\nenv = { __proto__ = "v" }', 'toml'],
      ['goose', 'extensions:\n  __proto__: { type: stdio, cmd: a, envs: { __proto__: v } }', 'yaml'],
    ] as const) {
      const got = read(reader, text, syntax);
      expect(
        got.targets.map((t) => t.name),
        reader,
      ).toEqual(['__proto__']);
      expect(Object.keys(got.targets[0]!.env!), reader).toEqual(['__proto__']);
      expect(({} as Record<string, unknown>).command, reader).toBeUndefined();
    }
  });
});

describe('parsing hostile files', () => {
  it('errors give a position, never the text of the file (it holds tokens)', () => {
    const toml = parseDocument('[mcp_servers.a]\ntoken = sk-live-secret-value\n', 'toml');
    expect(toml).toEqual({ error: expect.stringMatching(/^not valid TOML at line 2, column \d+: /) });
    const yaml = parseDocument('a:\n  token: "sk-live-secret-value\n  b: [', 'yaml');
    expect(yaml).toEqual({ error: expect.stringMatching(/^not valid YAML at line \d+, column \d+: /) });
    for (const r of [toml, yaml]) expect(JSON.stringify(r)).not.toContain('sk-live');
  });

  it('bounds nesting and YAML aliases', () => {
    expect(parseDocument(`a = ${'['.repeat(5_000)}${']'.repeat(5_000)}`, 'toml')).toHaveProperty('error');
    // The yaml parser overflows its stack slowly, or runs out of memory printing the error, on
    // thousands of levels: these are refused before it runs.
    expect(parseDocument(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'yaml')).toEqual({
      error: 'nested deeper than 64 levels',
    });
    expect(parseDocument('- '.repeat(500_000), 'yaml')).toEqual({ error: 'nested deeper than 64 levels' });
    expect(parseDocument(Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'), 'yaml')).toEqual({
      error: 'indented deeper than 256 columns',
    });
    expect(parseDocument(`a: "${'x'.repeat(2 * 1024 * 1024)}"`, 'yaml')).toEqual({
      error: 'larger than 1 MB; not read',
    });
    expect(parseDocument(`a: ${'['.repeat(100)}1${']'.repeat(100)}`, 'yaml')).toEqual({
      error: 'nested deeper than 64 levels',
    });
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++)
      laughs.push(
        `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(9)
          .fill(`*${'abcdefghi'[i - 1]}`)
          .join(', ')}]`,
      );
    expect(parseDocument(laughs.join('\n'), 'yaml')).toHaveProperty('error');
  });

  it('YAML tags and TOML dates become text, not objects', () => {
    const got = parseDocument('a: !!binary aGVsbG8=\nb: 2026-01-01\nc: !!set {x}', 'yaml') as {
      value: Record<string, unknown>;
    };
    expect(
      Object.values(got.value).every(
        (v) => typeof v === 'string' || (typeof v === 'object' && Object.getPrototypeOf(v) === null),
      ),
    ).toBe(true);
    const toml = parseDocument('d = 1979-05-27T07:32:00Z', 'toml') as { value: Record<string, unknown> };
    expect(typeof toml.value.d).toBe('string');
  });
});

describe('merging', () => {
  const t = (name: string, extra: Partial<TargetInput>, client: string): FoundTarget => ({
    ...toTarget({ name, source: `/${client}#x`, transport: 'stdio', command: 'node', args: ['s.js'], ...extra }),
    listedBy: [{ client, file: `/${client}` }],
  });

  it('one server listed by two clients is one target listing both; a header value does not make another server', () => {
    const got = mergeTargets(
      [],
      [
        t('a', {}, 'Cursor'),
        t('b', {}, 'Claude Desktop'),
        t(
          'r',
          {
            transport: 'http',
            command: undefined,
            args: undefined,
            url: 'https://x',
            headers: { Authorization: 'one' },
          },
          'Cursor',
        ),
        t(
          'r',
          {
            transport: 'http',
            command: undefined,
            args: undefined,
            url: 'https://x',
            headers: { authorization: 'two' },
          },
          'Zed',
        ),
      ],
    );
    expect(got.map((x) => [x.name, x.listedBy?.map((l) => l.client)])).toEqual([
      ['a', ['Cursor', 'Claude Desktop']],
      ['r', ['Cursor', 'Zed']],
    ]);
  });

  it('env values, args and cwd tell servers apart; a taken name gets the client in it', () => {
    const got = mergeTargets(
      [{ name: 'a', source: 'list.json#a', kind: 'command', command: 'other' }],
      [t('a', { env: { K: '1' } }, 'Cursor'), t('a', { env: { K: '2' } }, 'Cursor'), t('a', { cwd: '/w' }, 'Zed')],
    );
    expect(got.map((x) => x.name)).toEqual(['a', 'a (Cursor)', 'a (Cursor) #2', 'a (Zed)']);
    expect(identity(got[1]!)).not.toBe(identity(got[2]!));
  });

  it("a discovered server an explicit file already lists is scanned once, under the file's name", () => {
    const got = mergeTargets(
      [
        {
          name: 'mine',
          source: 'list.json#mine',
          kind: 'command',
          command: 'node',
          args: ['s.js'],
        },
      ],
      [t('theirs', {}, 'Cursor')],
    );
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ name: 'mine', listedBy: [{ client: 'Cursor', file: '/Cursor' }] });
  });
});

describe('discover() on a fake HOME', () => {
  let h: DiscoverHome;
  beforeAll(() => {
    h = discoverHome();
  });
  afterAll(() => h.cleanup());

  it('finds one file per client, merges the servers, and reports the broken files', async () => {
    const got = await discover({ home: h.home, project: h.project, platform: 'linux', env: {}, projectConfigs: true });
    const clients = new Set(got.files.map((f) => f.client));
    expect(clients.size).toBe(CLIENTS.length); // every client of the table has a file in the tree
    expect(got.targets.map((t) => t.name).sort()).toEqual([
      'dual',
      'modern',
      'payments',
      'payments (LM Studio)',
      'playwright',
      'remote',
      'team-dual',
    ]);
    const payments = got.targets.find((t) => t.name === 'payments')!;
    expect(payments.listedBy.map((l) => l.client)).toEqual([
      'Claude Desktop',
      'Claude Code',
      'Cursor',
      'Cline',
      'Codex',
    ]);
    expect(payments.listedBy[0]!.file).toBe(path.join(h.home, '.config/Claude/claude_desktop_config.json'));
    const errors = Object.fromEntries(
      got.files.filter((f) => f.error).map((f) => [path.relative(h.project, f.file), f.error]),
    );
    expect(errors).toEqual({
      '.roo/mcp.json': 'a directory, not a file',
      '.gemini/settings.json': expect.stringMatching(/^not valid JSON at line/),
      '.codex/config.toml': expect.stringMatching(/^not valid TOML at line/),
      '.continue/mcpServers/broken.yaml': expect.stringMatching(/^not valid YAML at line/),
    });
    // Each unusable file is also a skip, named by its client.
    expect(
      got.skipped
        .filter((s) => Object.keys(errors).includes(path.relative(h.project, s.source)))
        .map((s) => s.name)
        .sort(),
    ).toEqual(['Codex', 'Continue', 'Gemini CLI', 'Roo Code']);
  });

  it('an unreadable file is reported, not fatal', async () => {
    const dir = path.join(h.home, '.lmstudio');
    const { chmodSync } = await import('node:fs');
    chmodSync(path.join(dir, 'mcp.json'), 0o000);
    try {
      const got = await discover({
        home: h.home,
        project: h.project,
        platform: 'linux',
        env: {},
        projectConfigs: true,
      });
      const lm = got.files.find((f) => f.client === 'LM Studio')!;
      // root reads anything: then the file is simply read.
      if (process.getuid?.() !== 0) expect(lm.error).toBe('cannot read: permission denied (EACCES)');
      expect(got.targets.length).toBeGreaterThan(3);
    } finally {
      chmodSync(path.join(dir, 'mcp.json'), 0o644);
    }
  });

  it('finds nothing in an empty HOME', async () => {
    const e = emptyHome();
    try {
      expect(await discover({ home: e.home, project: e.project, platform: 'linux', env: {} })).toEqual({
        files: [],
        targets: [],
        projectTargets: [],
        skipped: [],
      });
    } finally {
      e.cleanup();
    }
  });

  it('reads every block file of a Continue folder, and only those', async () => {
    const e = emptyHome();
    try {
      const dir = path.join(e.project, '.continue', 'mcpServers');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'a.yaml'), 'mcpServers:\n  - name: a\n    command: x\n');
      writeFileSync(path.join(dir, 'b.json'), '{"mcpServers": {"b": {"command": "y"}}}');
      writeFileSync(path.join(dir, 'notes.txt'), 'not a block');
      const got = await discover({
        home: e.home,
        project: e.project,
        platform: 'linux',
        env: {},
        projectConfigs: true,
      });
      expect(got.targets.map((t) => t.name)).toEqual(['a', 'b']);
    } finally {
      e.cleanup();
    }
  });
});
