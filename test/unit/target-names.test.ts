// Names a target file gives (env, headers) are checked as names in every format that takes them.
import { describe, expect, it } from 'vitest';
import { parseTargets } from '../../src/targets/published.js';
import { parseDocument } from '../../src/targets/discover/parse.js';
import { readDocument } from '../../src/targets/discover/readers.js';
import type { ReaderId } from '../../src/targets/discover/clients.js';
import { parseManifest } from '../../src/launch/mcpb-manifest.js';
import { writeEnvFile } from '../../src/launch/oci.js';
import { checkTargets } from '../../src/app/scan/scan-input.js';
import { auditTarget } from '../../src/app/audit-target.js';
import type { LoadedTargets } from '../../src/targets/types.js';

const load = (doc: unknown, file = 'list.json') => parseTargets(JSON.stringify(doc), file, {});

function client(reader: ReaderId, text: string, syntax: 'json' | 'toml' | 'yaml' = 'json'): LoadedTargets {
  const parsed = parseDocument(text, syntax);
  if ('error' in parsed) throw new Error(parsed.error);
  return readDocument(reader, parsed.value, { file: '/f', env: {}, projectCtx: { file: '/f', env: {} } });
}

/** The one skip of a load whose only entry is the bad one. */
function onlySkip(got: { targets: unknown[]; skipped: LoadedTargets['skipped'] }): string {
  expect(got.targets).toEqual([]);
  expect(got.skipped).toHaveLength(1);
  return got.skipped[0]!.reason;
}

const CONTROL = /: an environment variable name cannot contain a line break, tab or other control character$/;

// A line feed, carriage return, tab, NEL (C1) and DEL; the last is the reviewer's case: a bare
// `DOCKER_AUTH_CONFIG` line in the engine's env file copies the host's credential into the container.
const NAMES = ['A\nB', 'A\rB', 'A\tB', 'A\u0085B', 'A\u007fB', 'DOCKER_AUTH_CONFIG\nB'];

/** `"..."` as TOML and YAML double-quoted keys write it (JSON's escapes, and \u escapes for both). */
const quotedKey = (name: string) =>
  `"${[...name].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) >= 0x7f ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')}"`;

describe('env names with a control character are refused in every format that takes env', () => {
  it.each(NAMES)('our own list (command and oci): %j', (name) => {
    const env = { [name]: 'x' };
    expect(onlySkip(load({ servers: [{ name: 'c', command: 'node', env }] }))).toMatch(
      new RegExp(`^servers\\[0\\]\\.env\\.${escape(name)}${CONTROL.source}`),
    );
    expect(onlySkip(load({ servers: [{ name: 'o', oci: 'ghcr.io/o/s:1.0.0', env }] }))).toMatch(CONTROL);
  });

  it.each(NAMES)('mcpServers: %j', (name) => {
    expect(onlySkip(load({ mcpServers: { s: { command: 'node', env: { [name]: 'x' } } } }))).toMatch(
      new RegExp(`^mcpServers\\.s\\.env\\.${escape(name)}${CONTROL.source}`),
    );
  });

  it.each(NAMES)('a registry server.json, npm and OCI packages: %j', (name) => {
    const pkg = (registryType: string, identifier: string) => ({
      registryType,
      identifier,
      version: '1.2.3',
      environmentVariables: [{ name, value: 'x' }],
    });
    const got = load(
      { name: 'io.example/p', packages: [pkg('npm', '@ex/p'), pkg('oci', 'ghcr.io/ex/p')] },
      'server.json',
    );
    expect(got.targets).toEqual([]);
    expect(got.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(new RegExp(`^packages\\[0\\]\\.environmentVariables\\[0\\]\\.name${CONTROL.source}`)),
      expect.stringMatching(new RegExp(`^packages\\[1\\]\\.environmentVariables\\[0\\]\\.name${CONTROL.source}`)),
    ]);
  });

  it.each(NAMES)('client configs (Codex, Zed, Continue, Goose, OpenCode): %j', (name) => {
    const key = quotedKey(name);
    const env = { [name]: 'x' };
    expect(
      onlySkip(client('codex', `[mcp_servers.s]\ncommand = "node"\n[mcp_servers.s.env]\n${key} = "x"\n`, 'toml')),
    ).toMatch(CONTROL);
    expect(onlySkip(client('zed', JSON.stringify({ context_servers: { s: { command: 'node', env } } })))).toMatch(
      CONTROL,
    );
    // Zed's older nested launch is one arm of a union: zod says only that the field is wrong.
    expect(
      onlySkip(client('zed', JSON.stringify({ context_servers: { s: { command: { path: 'node', env } } } }))),
    ).toMatch(/^context_servers\.s\.command: /);
    expect(
      onlySkip(client('continue', `mcpServers:\n  - name: s\n    command: node\n    env:\n      ${key}: x\n`, 'yaml')),
    ).toMatch(CONTROL);
    expect(
      onlySkip(
        client('goose', `extensions:\n  s:\n    type: stdio\n    cmd: node\n    envs:\n      ${key}: x\n`, 'yaml'),
      ),
    ).toMatch(CONTROL);
    expect(
      onlySkip(
        client('opencode', JSON.stringify({ mcp: { s: { type: 'local', command: ['node'], environment: env } } })),
      ),
    ).toMatch(CONTROL);
  });

  it.each(NAMES)("a bundle's mcp_config.env: %j", (name) => {
    const got = parseManifest(
      JSON.stringify({
        name: 'b',
        version: '1',
        server: { type: 'binary', mcp_config: { command: 'x', env: { [name]: 'x' } } },
      }),
    );
    expect(got).toMatchObject({ error: expect.stringMatching(CONTROL) });
  });

  it('plain names, and names with other characters an OS takes, still load', () => {
    const got = load({ servers: [{ name: 'c', command: 'node', env: { API_KEY: 'k', 'my.var': 'v', Ünïcode: 'u' } }] });
    expect(got.skipped).toEqual([]);
    expect(Object.keys(got.targets[0]!.env!)).toEqual(['API_KEY', 'my.var', 'Ünïcode']);
  });
});

/** `name` as a literal in a RegExp. */
function escape(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('header names', () => {
  const CLIENT_SETS = /: set by idemscan's HTTP client for each request; a target cannot send it$/;
  const NOT_TOKEN = /: not a valid HTTP header name$/;
  const remote = (headers: Record<string, string>) =>
    load({ servers: [{ name: 'r', url: 'https://h.example.test/mcp', headers }] });

  it.each([
    'Transfer-Encoding',
    'transfer-encoding',
    'Connection',
    'Keep-Alive',
    'Upgrade',
    'Expect',
    'Content-Length',
  ])('%s, which undici refuses on every request, is refused when the file is read', (name) => {
    expect(onlySkip(remote({ [name]: 'x' }))).toMatch(
      new RegExp(`^servers\\[0\\]\\.headers\\.${name}${CLIENT_SETS.source}`),
    );
    expect(
      onlySkip(load({ mcpServers: { s: { url: 'https://h.example.test/mcp', headers: { [name]: 'x' } } } })),
    ).toMatch(CLIENT_SETS);
    const registry = load(
      {
        name: 'io.example/p',
        remotes: [{ type: 'streamable-http', url: 'https://h.example.test/mcp', headers: [{ name, value: 'x' }] }],
      },
      'server.json',
    );
    expect(onlySkip(registry)).toMatch(new RegExp(`^remotes\\[0\\]\\.headers\\[0\\]\\.name${CLIENT_SETS.source}`));
  });

  it.each(['Bad Name', 'X\nY', 'X\u0085Y', ''])('%j, not an RFC 9110 token, is refused', (name) => {
    expect(onlySkip(remote({ [name]: 'x' }))).toMatch(NOT_TOKEN);
    const registry = load(
      {
        name: 'io.example/p',
        remotes: [{ type: 'streamable-http', url: 'https://h.example.test/mcp', headers: [{ name, value: 'x' }] }],
      },
      'server.json',
    );
    expect(onlySkip(registry)).toMatch(NOT_TOKEN);
  });

  it('client configs refuse them too (Codex, by value and by variable; Zed; Continue; Goose; OpenCode)', () => {
    const url = 'https://h.example.test/mcp';
    const headers = { 'Transfer-Encoding': 'chunked' };
    expect(
      onlySkip(
        client(
          'codex',
          `[mcp_servers.s]\nurl = "${url}"\nhttp_headers = { "Transfer-Encoding" = "chunked" }\n`,
          'toml',
        ),
      ),
    ).toMatch(CLIENT_SETS);
    expect(
      onlySkip(
        client('codex', `[mcp_servers.s]\nurl = "${url}"\nenv_http_headers = { "Upgrade" = "TOKEN" }\n`, 'toml'),
      ),
    ).toMatch(CLIENT_SETS);
    expect(onlySkip(client('zed', JSON.stringify({ context_servers: { s: { url, headers } } })))).toMatch(CLIENT_SETS);
    expect(
      onlySkip(client('continue', JSON.stringify({ mcpServers: [{ name: 's', url, requestOptions: { headers } }] }))),
    ).toMatch(CLIENT_SETS);
    expect(
      onlySkip(
        client(
          'goose',
          `extensions:\n  s:\n    type: streamable_http\n    uri: ${url}\n    headers:\n      "X Y": v\n`,
          'yaml',
        ),
      ),
    ).toMatch(NOT_TOKEN);
    expect(onlySkip(client('opencode', JSON.stringify({ mcp: { s: { type: 'remote', url, headers } } })))).toMatch(
      CLIENT_SETS,
    );
  });

  it('a value with a control character undici refuses, or one beyond Latin-1, is refused; a tab and Latin-1 are not', () => {
    expect(onlySkip(remote({ 'X-Key': 'a\u0001b' }))).toMatch(
      /^servers\[0\]\.headers\.X-Key: contains a control character/,
    );
    expect(onlySkip(remote({ 'X-Key': 'a\u20acb' }))).toMatch(/beyond Latin-1/);
    expect(onlySkip(remote({ 'X-Key': 'a\r\nX-Injected: 1' }))).toMatch(
      /^servers\[0\]\.headers\.X-Key: contains a line break or NUL$/,
    );
    expect(remote({ 'X-Key': 'a\tb\u00e9', Host: 'h.example.test' }).skipped).toEqual([]);
  });
});

describe("the engine's env file", () => {
  it.each(NAMES.concat(['', 'A=B', 'A B', '#A', ' A']))(
    'writes no line for the name %j: the server fails instead',
    async (name) => {
      await expect(writeEnvFile({ OK: '1', [name]: 'x' })).rejects.toThrow(
        /: not a plain environment variable name .*cannot be passed to a container$/,
      );
    },
  );

  it('names the variable escaped, so the message is one line', async () => {
    await expect(writeEnvFile({ 'DOCKER_AUTH_CONFIG\nB': 'x' })).rejects.toThrow(/^env "DOCKER_AUTH_CONFIG\\nB": /);
  });
});

describe('targets given as data: a library call and the flags', () => {
  it('checkTargets refuses an env name with a line break and a header undici refuses, naming the field', () => {
    const command = { name: 's', source: 'test', transport: 'stdio', command: 'node', env: { 'A\nB': 'x' } };
    expect(() => checkTargets([command])).toThrow(/targets\[0\]\.env\."A\\nB": .*line break/);
    const remote = { name: 'r', source: 'test', transport: 'http', url: 'http://127.0.0.1:1/mcp' };
    expect(() => checkTargets([{ ...remote, headers: { 'Transfer-Encoding': 'chunked' } }])).toThrow(
      /targets\[0\]\.headers\."Transfer-Encoding": set by idemscan's HTTP client/,
    );
    expect(() => checkTargets([{ ...remote, headers: { 'X-Key': 'a\r\nX-Injected: 1' } }])).toThrow(/line break/);
    expect(() => checkTargets([{ ...remote, headers: { 'X-Key': 'ok' } }])).not.toThrow();
  });

  it('--env and --header are checked as a target file is', () => {
    expect(() => auditTarget(['node', 'server.js'], { env: ['A\tB=x'] })).toThrow(/--env .*control character/);
    expect(() => auditTarget(['http://127.0.0.1:1/mcp'], { header: ['Upgrade: h2c'] })).toThrow(
      /--header .*HTTP client/,
    );
    expect(auditTarget(['node', 'server.js'], { env: ['API_KEY=x'] })).toMatchObject({ env: { API_KEY: 'x' } });
  });
});
