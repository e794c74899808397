/**
 * Client configs that start servers with `npx -y pkg@ver` (and the other runners): scanned under
 * --sandbox, the package is installed into the cache first and run from it. The registry is a
 * local one (test/helpers/npm-registry.ts) serving the fixture package test/fixtures/packages/npx-server.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { idemscan } from '../helpers/cli.js';
import { startRegistry, type LocalRegistry } from '../helpers/npm-registry.js';

const PACKAGE = fileURLToPath(new URL('../fixtures/packages/npx-server', import.meta.url));
const sandbox = sandboxPrefix() ? ['--sandbox'] : [];
let registry: LocalRegistry;

beforeAll(async () => {
  registry = await startRegistry([{ dir: PACKAGE, versions: ['1.0.0', '1.1.0', '2.0.0-beta.1'], latest: '1.1.0' }]);
}, 120_000);
afterAll(() => registry?.close());

async function scanConfig(servers: Record<string, unknown>, extra: string[] = []) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-npx-'));
  const file = path.join(dir, 'claude_desktop_config.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  const started = performance.now();
  const run = await idemscan(
    ['scan', file, '--cache-dir', path.join(dir, 'cache'), '--out', dir, '--json', '-', ...sandbox, ...extra],
    { env: registry.env() },
  );
  const ms = performance.now() - started;
  expect(run.stdout, run.stderr).not.toBe('');
  const report = Report.parse(JSON.parse(run.stdout));
  return { run, ms, report, server: (name: string) => report.servers.find((s) => s.name === name)! };
}

it.skipIf(!sandboxPrefix())(
  'scans `npx -y pkg@ver` entries under --sandbox from the cache, with their arguments',
  { timeout: 120_000 },
  async () => {
    const { run, server } = await scanConfig({
      files: { command: 'npx', args: ['-y', 'idemscan-npx-probe@1.0.0', '/data', '--read-only'] },
      exec: { command: 'npm', args: ['exec', '-y', 'idemscan-npx-probe@1.0.0', '--', '--port', '1'] },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    for (const [name, args] of [
      ['files', ['/data', '--read-only']],
      ['exec', ['--port', '1']],
    ] as const) {
      const s = server(name);
      expect(s.status, JSON.stringify(s.failure)).toBe('ok');
      expect(s.target.sandbox).toBe(sandboxPrefix()![0] === 'bwrap' ? 'bubblewrap' : 'netns');
      expect(s.serverInfo?.version).toBe('1.0.0');
      expect(s.tools[0]!.description).toBe(JSON.stringify(args));
      expect(s.target.npm).toBe('idemscan-npx-probe@1.0.0');
      expect(s.target.launcher).toEqual({
        runner: name === 'files' ? 'npx' : 'npm exec',
        spec: 'idemscan-npx-probe@1.0.0',
        resolved: false,
      });
      // node on the cached bin (its real path, in the entry's virtual store), no runner between:
      // nothing downloads at start-up.
      const bin = 'node_modules/.pnpm/idemscan-npx-probe@1\\.0\\.0/node_modules/idemscan-npx-probe/server\\.mjs';
      expect(s.target.resolved).toMatch(
        new RegExp(`^${process.execPath} \\S+/cache/npm/idemscan-npx-probe@1\\.0\\.0/${bin} `),
      );
    }
    // One install for both entries, from the local registry.
    expect(registry.requests.filter((r) => r.endsWith('-1.0.0.tgz'))).toHaveLength(1);
  },
);

it(
  'resolves an unpinned package to the version npm would pick, and the report says the config did not pin it',
  { timeout: 120_000 },
  async () => {
    const { run, server, report } = await scanConfig({
      bare: { command: 'npx', args: ['-y', 'idemscan-npx-probe'] },
      range: { command: 'pnpm', args: ['dlx', 'idemscan-npx-probe@^1.0.0'] },
      tag: { command: 'bunx', args: ['idemscan-npx-probe@latest'] },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    for (const [name, spec] of [
      ['bare', 'idemscan-npx-probe'],
      ['range', 'idemscan-npx-probe@^1.0.0'],
      ['tag', 'idemscan-npx-probe@latest'],
    ]) {
      const s = server(name!);
      expect(s.status, JSON.stringify(s.failure)).toBe('ok');
      expect(s.serverInfo?.version).toBe('1.1.0');
      expect(s.target.npm).toBe('idemscan-npx-probe@1.1.0');
      expect(s.target.launcher).toMatchObject({ spec, resolved: true });
    }
    expect(report.manifest?.packages).toEqual(['idemscan-npx-probe@1.1.0']);
  },
);

it(
  'says at once that a uvx server it cannot read cannot run in the sandbox, instead of timing out',
  { timeout: 60_000 },
  async () => {
    // An unpinned `uvx NAME` is resolved from its index (pypi.test.ts); `--python` is no option idemscan reads.
    const { server, ms } = await scanConfig(
      { fetch: { command: 'uvx', args: ['--python', '3.12', 'mcp-server-fetch'] } },
      sandbox.length ? [] : ['--sandbox'],
    );
    const s = server('fetch');
    expect(s.failure?.kind).toBe('spawn');
    expect(s.failure?.message).toMatch(/^uvx mcp-server-fetch: idemscan cannot read this uvx command line/);
    expect(ms).toBeLessThan(15_000); // not the 30 s of --timeout
  },
);

it.skipIf(!sandboxPrefix())('does not count the install against --timeout', { timeout: 120_000 }, async () => {
  registry.tarballDelayMs = 3_000;
  try {
    const { run, server } = await scanConfig(
      { slow: { command: 'npx', args: ['-y', 'idemscan-npx-probe@2.0.0-beta.1'] } },
      ['--timeout', '2000'],
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(server('slow').status, JSON.stringify(server('slow').failure)).toBe('ok');
    expect(server('slow').durationMs).toBeLessThan(2_000);
  } finally {
    registry.tarballDelayMs = 0;
  }
});

it.skipIf(!sandboxPrefix())(
  'does the same for our own list format and for a discovered client config (Codex TOML)',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-npx-disc-'));
    const home = path.join(dir, 'home');
    mkdirSync(path.join(home, '.codex'), { recursive: true });
    writeFileSync(
      path.join(home, '.codex', 'config.toml'),
      '[mcp_servers.probe]\ncommand = "npx"\nargs = ["-y", "idemscan-npx-probe@1.0.0", "codex"]\n',
    );
    const list = path.join(dir, 'targets.json');
    writeFileSync(
      list,
      JSON.stringify({
        servers: [{ name: 'own', command: 'npx', args: ['--yes', 'idemscan-npx-probe@1.1.0', 'own'] }],
      }),
    );
    const run = await idemscan(
      [
        'scan',
        list,
        '--discover',
        '--cache-dir',
        path.join(dir, 'cache'),
        '--out',
        dir,
        '--json',
        '-',
        '-q',
        ...sandbox,
      ],
      {
        env: { ...registry.env(), HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
        cwd: dir,
      },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const report = Report.parse(JSON.parse(run.stdout));
    expect(report.servers.map((s) => [s.name, s.status, s.target.npm, s.tools[0]?.description])).toEqual([
      ['own', 'ok', 'idemscan-npx-probe@1.1.0', '["own"]'],
      ['probe', 'ok', 'idemscan-npx-probe@1.0.0', '["codex"]'],
    ]);
  },
);

it(
  '`idemscan install` installs runner entries; `scan --no-install` then takes an unpinned one from the cache',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-npx-offline-'));
    const file = path.join(dir, 'mcp.json');
    const cache = path.join(dir, 'cache');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          bare: { command: 'npx', args: ['idemscan-npx-probe'] },
          none: { command: 'npx', args: ['idemscan-npx-probe@^9'] },
        },
      }),
    );
    const install = await idemscan(['install', file, '--cache-dir', cache], { env: registry.env() });
    expect(install.stdout).toMatch(/1\/1 packages/);
    expect(install.stderr).toContain('idemscan-npx-probe@^9: no published version matches "^9"');
    expect(install.exitCode).toBe(3);
    const scan = await idemscan(
      ['scan', file, '--no-install', '--cache-dir', cache, '--out', dir, '--json', '-', '-q', ...sandbox],
      { env: { npm_config_registry: 'http://127.0.0.1:9/' } },
    );
    const report = Report.parse(JSON.parse(scan.stdout));
    const [bare, none] = report.servers;
    expect([bare!.status, bare!.target.npm, bare!.target.launcher?.resolved]).toEqual([
      'ok',
      'idemscan-npx-probe@1.1.0',
      true,
    ]);
    expect(none!.failure?.message).toMatch(/not pinned, and no version in the cache fits "\^9"/);
  },
);

it.skipIf(!sandboxPrefix())(
  "resolves an unpinned package with the user's npm settings, never the registry of the working directory's .npmrc (a cloned repository's)",
  { timeout: 120_000 },
  async () => {
    const hostile = await startRegistry([{ dir: PACKAGE, versions: ['1.0.0'] }]);
    try {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-npx-npmrc-'));
      const repo = path.join(dir, 'repo');
      mkdirSync(repo);
      writeFileSync(path.join(repo, 'package.json'), '{"name":"cloned"}');
      writeFileSync(path.join(repo, '.npmrc'), `registry=${hostile.url}/\n`);
      writeFileSync(
        path.join(repo, 'mcp.json'),
        JSON.stringify({ mcpServers: { bare: { command: 'npx', args: ['-y', 'idemscan-npx-probe'] } } }),
      );
      // The user's own registry comes from their npmrc (an env variable would outrank any .npmrc).
      const userrc = path.join(dir, 'user-npmrc');
      writeFileSync(userrc, `registry=${registry.url}/\n`);
      const { npm_config_registry: _, ...env } = registry.env();
      const run = await idemscan(
        [
          'scan',
          'mcp.json',
          '--cache-dir',
          path.join(dir, 'cache'),
          '--out',
          path.join(dir, 'out'),
          '--json',
          '-',
          '-q',
          ...sandbox,
        ],
        {
          env: { ...env, npm_config_userconfig: userrc },
          cwd: repo,
        },
      );
      const s = Report.parse(JSON.parse(run.stdout)).servers[0]!;
      expect(hostile.requests).toEqual([]);
      expect([s.status, s.target.npm]).toEqual(['ok', 'idemscan-npx-probe@1.1.0']);
    } finally {
      await hostile.close();
    }
  },
);
