/** The example target files in targets/examples/, one per supported format, read as a user would. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadTargetFile } from '../../src/targets/published.js';
import type { LoadedTarget } from '../../src/targets/kind.js';

const DIR = fileURLToPath(new URL('../../targets/examples/', import.meta.url));
const file = (name: string) => path.join(DIR, name);

/** A test environment: nothing of the real one leaks in. */
const env = { IDEMSCAN_EXAMPLE_TOKEN: 'test-token', IDEMSCAN_EXAMPLE_SCRATCH: '/scratch' };

const EVERYTHING = ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'];
const MEMORY = ['-y', '@modelcontextprotocol/server-memory@2026.8.31'];

const byName = (targets: LoadedTarget[]) => Object.fromEntries(targets.map((t) => [t.name, t]));

describe('targets/examples', () => {
  it('claude-desktop.json: mcpServers with command, args and env', async () => {
    const { targets, skipped } = await loadTargetFile(file('claude-desktop.json'), env);
    expect(skipped).toEqual([]);
    expect(targets.map((t) => [t.name, t.transport])).toEqual([
      ['everything', 'stdio'],
      ['filesystem', 'stdio'],
      ['memory', 'stdio'],
    ]);
    const t = byName(targets);
    expect(t.everything).toMatchObject({ command: 'npx', args: EVERYTHING });
    expect(t.filesystem).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '/tmp'],
    });
    expect(t.memory).toMatchObject({
      command: 'npx',
      args: MEMORY,
      env: { MEMORY_FILE_PATH: '/tmp/idemscan-example-memory.jsonl' },
    });
    expect(t.everything!.source).toBe(`${file('claude-desktop.json')}#mcpServers.everything`);
  });

  it('claude-code.mcp.json: type, url, headers, ${VAR} and ${VAR:-default}', async () => {
    const { targets, skipped } = await loadTargetFile(file('claude-code.mcp.json'), env);
    expect(skipped).toEqual([]);
    expect(targets.map((t) => [t.name, t.transport])).toEqual([
      ['everything', 'stdio'],
      ['memory', 'stdio'],
      ['local-http', 'http'],
      ['local-sse', 'sse'],
    ]);
    const t = byName(targets);
    expect(t.everything).toMatchObject({ command: 'npx', args: EVERYTHING, env: {} });
    // ${VAR:-default} with VAR set: the value.
    expect(t.memory!.env).toEqual({ MEMORY_FILE_PATH: '/scratch/idemscan-example-memory.jsonl' });
    // ${VAR:-default} with VAR unset: the default; ${VAR} set: the value.
    expect(t['local-http']).toMatchObject({
      url: 'http://127.0.0.1:3001/mcp',
      headers: { Authorization: 'Bearer test-token' },
    });
    expect(t['local-http']!.command).toBeUndefined();
    expect(t['local-sse']).toMatchObject({
      url: 'http://127.0.0.1:3001/sse',
      headers: { 'X-Api-Key': 'idemscan-fake-key' },
    });
  });

  it('claude-code.mcp.json: defaults apply when unset, and an unset ${VAR} without one skips that entry only', async () => {
    const { targets, skipped } = await loadTargetFile(file('claude-code.mcp.json'), {
      IDEMSCAN_EXAMPLE_BASE: 'http://127.0.0.1:4999',
    });
    expect(targets.map((t) => t.name)).toEqual(['everything', 'memory', 'local-sse']);
    expect(byName(targets).memory!.env).toEqual({ MEMORY_FILE_PATH: '/tmp/idemscan-example-memory.jsonl' });
    expect(skipped).toEqual([
      {
        name: 'local-http',
        source: file('claude-code.mcp.json'),
        reason:
          'mcpServers.local-http.headers.Authorization: ${IDEMSCAN_EXAMPLE_TOKEN} is not expanded: idemscan reads into a target file only the environment variables --allow-env names (--allow-env IDEMSCAN_EXAMPLE_TOKEN, when you trust it with that value)',
        unexpanded: 'IDEMSCAN_EXAMPLE_TOKEN',
      },
    ]);
  });

  it('cursor.json: mcpServers with url (HTTP) and command', async () => {
    const { targets, skipped } = await loadTargetFile(file('cursor.json'), env);
    expect(skipped).toEqual([]);
    expect(targets.map((t) => [t.name, t.transport, t.url ?? t.command])).toEqual([
      ['local-http', 'http', 'http://127.0.0.1:3002/mcp'],
      // Without a type, a URL is Streamable HTTP (SSE is found by fallback when connecting).
      ['local-sse', 'http', 'http://127.0.0.1:3002/sse'],
      ['everything', 'stdio', 'npx'],
    ]);
    expect(byName(targets)['local-http']!.headers).toEqual({ Authorization: 'Bearer test-token' });
  });

  it('windsurf.json: serverUrl, and a disabled entry listed as skipped', async () => {
    const { targets, skipped } = await loadTargetFile(file('windsurf.json'), env);
    expect(targets.map((t) => [t.name, t.transport])).toEqual([
      ['local-http', 'http'],
      ['sequential-thinking', 'stdio'],
    ]);
    const t = byName(targets);
    expect(t['local-http']).toMatchObject({
      url: 'http://127.0.0.1:3003/mcp',
      headers: { Authorization: 'Bearer idemscan-fake-token' },
    });
    expect(t['sequential-thinking']).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-sequential-thinking@2026.8.31'],
    });
    expect(skipped).toEqual([
      {
        name: 'switched-off',
        source: file('windsurf.json'),
        reason: 'mcpServers.switched-off.disabled: the entry is disabled',
      },
    ]);
  });

  it('vscode.mcp.json: servers object with comments, ${workspaceFolder}, ${env:VAR}; ${input:...} is skipped', async () => {
    const { targets, skipped } = await loadTargetFile(file('vscode.mcp.json'), env);
    expect(targets.map((t) => [t.name, t.transport])).toEqual([
      ['filesystem', 'stdio'],
      ['memory', 'stdio'],
      ['local-http', 'http'],
    ]);
    const t = byName(targets);
    // Not under .vscode/, so the workspace folder is the file's own folder.
    expect(t.filesystem!.args).toEqual(['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', path.resolve(DIR)]);
    expect(t.memory!.env).toEqual({ MEMORY_FILE_PATH: '/scratch/idemscan-example-memory.jsonl' });
    expect(t['local-http']).toMatchObject({ url: 'http://127.0.0.1:3004/mcp' });
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ name: 'asks-for-key', source: file('vscode.mcp.json') });
    expect(skipped[0]!.reason).toMatch(
      /^servers\.asks-for-key\.headers\.Authorization: \$\{input:api-key\} needs an interactive VS Code input$/,
    );
  });

  it('registry-server.json: npm package with arguments and fake secrets, a remote, a skipped NuGet package', async () => {
    const { targets, skipped } = await loadTargetFile(file('registry-server.json'), env);
    const base = 'io.github.idemscan/example-everything';
    expect(targets.map((t) => [t.name, t.transport])).toEqual([
      [`${base}#npm`, 'stdio'],
      [`${base}#remote`, 'http'],
    ]);
    const [pkg, remote] = targets;
    expect(pkg).toMatchObject({
      npm: '@modelcontextprotocol/server-everything@2026.8.31',
      args: ['stdio'],
      env: { EXAMPLE_API_KEY: 'idemscan-fake-example_api_key', EXAMPLE_LOG_LEVEL: 'info' },
      fakeEnv: ['EXAMPLE_API_KEY'],
    });
    expect(pkg!.env).not.toHaveProperty('EXAMPLE_OPTIONAL');
    expect(pkg!.command).toBeUndefined();
    expect(remote).toMatchObject({
      url: 'http://127.0.0.1:3005/mcp',
      headers: { Authorization: 'idemscan-fake-authorization' },
      fakeEnv: ['Authorization'],
    });
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ name: `${base}#nuget-1`, source: file('registry-server.json') });
    expect(skipped[0]!.reason).toMatch(
      /registry type "nuget" is not launched by idemscan \(npm, pypi, mcpb, oci only\)/,
    );
  });

  it('every example uses only loopback URLs and pinned reference servers', async () => {
    for (const name of [
      'claude-desktop.json',
      'claude-code.mcp.json',
      'cursor.json',
      'windsurf.json',
      'vscode.mcp.json',
      'registry-server.json',
    ]) {
      const { targets } = await loadTargetFile(file(name), env);
      expect(targets.length, name).toBeGreaterThan(0);
      for (const t of targets) {
        if (t.url) expect(new URL(t.url).hostname, `${name} ${t.name}`).toBe('127.0.0.1');
        const pkgs = [t.npm, ...(t.args ?? [])].filter((a): a is string => !!a && a.startsWith('@'));
        for (const p of pkgs)
          expect(p, `${name} ${t.name}`).toMatch(/^@modelcontextprotocol\/server-[a-z-]+@\d+\.\d+\.\d+$/);
      }
    }
  });
});
