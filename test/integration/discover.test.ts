/**
 * `scan --discover` and `where` through the built CLI on a fake HOME (test/fixtures/discover-home)
 * whose client files name the real fixture servers: they are started and scanned, each once.
 */
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/schema.js';
import { Report as ReportSchema } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';
import { discoverHome, emptyHome, type DiscoverHome } from '../helpers/discover-home.js';

/** The CLI with only HOME and PATH: no XDG_CONFIG_HOME, APPDATA or CODEX_HOME of the machine leaks in. */
/** `scan --discover ...args` with the JSON report on stdout, quiet, its files under the cache. */
function discoverScan(args: string[], h: DiscoverHome, cacheDir: string) {
  const out = ['--json', '-', '--out', path.join(cacheDir, 'out'), '--probe-timeout', '1000', '-q'];
  return run(['scan', '--discover', ...args, ...out], h, cacheDir);
}

function run(args: string[], h: DiscoverHome, cacheDir: string) {
  return execa(process.execPath, [CLI, ...args], {
    reject: false,
    cwd: h.project,
    extendEnv: false,
    env: { HOME: h.home, PATH: process.env.PATH ?? '/usr/bin:/bin', IDEMSCAN_CACHE: cacheDir },
    timeout: 120_000,
  });
}

describe('scan --discover', () => {
  let h: DiscoverHome;
  let cache: string;
  beforeAll(() => {
    h = discoverHome();
    cache = mkdtempSync(path.join(os.tmpdir(), 'idemscan-discover-cache-'));
  });
  afterAll(() => h.cleanup());

  it('scans every distinct server the clients list once, says who lists it, and reports the broken files', async () => {
    const r = await discoverScan(['--project-configs', '--timeout', '60000'], h, cache);
    expect(r.exitCode, r.stderr).toBe(0);
    const report: Report = ReportSchema.parse(JSON.parse(r.stdout));
    const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual([
      'dual',
      'modern',
      'payments',
      'payments (LM Studio)',
      'playwright',
      'remote',
      'team-dual',
    ]);
    // The fixture servers really ran; the remote one points at a closed port.
    for (const name of ['dual', 'modern', 'payments', 'payments (LM Studio)', 'playwright', 'team-dual']) {
      expect(byName[name]!.status, `${name}: ${byName[name]!.failure?.message}`).toBe('ok');
      expect(byName[name]!.tools.length).toBeGreaterThan(0);
    }
    expect(byName.payments!.serverInfo?.name).toBe('legacy-payments');
    expect(byName.remote!.status).toBe('failed');
    // Listed by five clients, scanned once.
    expect(byName.payments!.target.listedBy).toEqual([
      { client: 'Claude Desktop', file: path.join(h.home, '.config/Claude/claude_desktop_config.json') },
      { client: 'Claude Code', file: path.join(h.home, '.claude.json') },
      { client: 'Cursor', file: path.join(h.home, '.cursor/mcp.json') },
      {
        client: 'Cline',
        file: path.join(
          h.home,
          '.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
        ),
      },
      { client: 'Codex', file: path.join(h.home, '.codex/config.toml') },
    ]);
    expect(byName.dual!.target.listedBy!.map((l) => l.client)).toEqual([
      'VS Code',
      'VS Code Insiders',
      'Roo Code',
      'Zed',
      'Goose',
    ]);
    // User files first (every client's), then the project's: .mcp.json and .cursor/mcp.json come last.
    expect(byName.modern!.target.listedBy!.map((l) => l.client)).toEqual([
      'Windsurf',
      'Continue',
      'OpenCode',
      'Claude Code',
      'Cursor',
    ]);
    // Header values (tokens) never reach the report, only names.
    expect(byName.remote!.target.headers).toEqual(['Authorization']);
    expect(r.stdout).not.toContain('token-not-real');
    // The broken files: in the report's skipped and on stderr, and the scan went on.
    const skipped = Object.fromEntries((report.skipped ?? []).map((s) => [path.relative(h.home, s.source), s.reason]));
    expect(skipped).toMatchObject({
      '../project/.roo/mcp.json': 'a directory, not a file',
      '../project/.gemini/settings.json': expect.stringMatching(/^not valid JSON/),
      '../project/.codex/config.toml': expect.stringMatching(/^not valid TOML/),
      '../project/.continue/mcpServers/broken.yaml': expect.stringMatching(/^not valid YAML/),
    });
    expect(r.stderr).toContain(
      `idemscan: skipped Roo Code (${path.join(h.project, '.roo/mcp.json')}): a directory, not a file`,
    );
    expect(r.stderr).toMatch(/skipped Codex \(.*\.codex\/config\.toml\): not valid TOML/);
    // Issue 28: the answer per server names the clients that list it and the version scanned.
    const saved = path.join(cache, 'discovered.json');
    writeFileSync(saved, r.stdout);
    const table = await run(['report', saved, '--format', 'table'], h, cache);
    expect(table.exitCode, table.stderr).toBe(0);
    const answer = table.stdout.slice(table.stdout.indexOf('What a client may do with each server:'));
    expect(answer).toMatch(
      new RegExp(
        `^ {2}payments ${byName.payments!.serverInfo!.version!.replace(/\./g, '\\.')}, listed by Claude Desktop, Claude Code, Cursor, Cline, Codex: `,
        'm',
      ),
    );
    expect(answer).toMatch(
      /^ {2}remote, listed by Gemini CLI, VS Code, Amazon Q Developer: not scanned \(unreachable\)/m,
    );
  });

  it('without --project-configs scans the user-scope servers only, and says what it left', async () => {
    const r = await discoverScan(['--timeout', '60000'], h, cache);
    expect(r.exitCode, r.stderr).toBe(0);
    const report: Report = ReportSchema.parse(JSON.parse(r.stdout));
    // team-dual is in Claude Code's projects entry and in user files too (Amazon Q, VS Code's settings): scanned.
    expect(report.servers.map((s) => s.name).sort()).toEqual([
      'dual',
      'modern',
      'payments',
      'payments (LM Studio)',
      'remote',
      'team-dual',
    ]);
    // playwright is only in the project's .continue/mcpServers/.
    expect(r.stderr).toMatch(
      /^idemscan: skipped 1 server of project-scope configs \(.*playwright\.yaml\): scan them with --project-configs$/m,
    );
    // The project files' own errors are not news to a scan that does not read them.
    expect(r.stderr).not.toContain('.roo/mcp.json');
  });

  it("combines with explicit files: a server both list is scanned once, under the file's name", async () => {
    const list = path.join(cache, 'mine.json');
    writeFileSync(
      list,
      JSON.stringify({ servers: [{ name: 'my-payments', command: process.execPath, args: [FIXTURES.legacyStdio] }] }),
    );
    const r = await discoverScan([list, '--project-configs'], h, cache);
    expect(r.exitCode, r.stderr).toBe(0);
    const report: Report = JSON.parse(r.stdout);
    expect(report.servers.map((s) => s.name)).not.toContain('payments');
    const mine = report.servers.find((s) => s.name === 'my-payments')!;
    expect(mine.target.source).toBe(`${list}#servers[0]`);
    expect(mine.target.listedBy?.map((l) => l.client)).toEqual([
      'Claude Desktop',
      'Claude Code',
      'Cursor',
      'Cline',
      'Codex',
    ]);
    expect(report.servers).toHaveLength(7);
  });

  it('where lists each file with its servers or its error, and exits 0', async () => {
    const r = await run(['where'], h, cache);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Codex +user +\S+\.codex\/config\.toml {2}1 server, 2 skipped$/m);
    expect(r.stdout).toMatch(/^Roo Code +project +\S+\.roo\/mcp\.json {2}error: a directory, not a file$/m);
    expect(r.stdout).toMatch(/^7 distinct servers in 28 files$/m);
    const json = await run(['where', '--json'], h, cache);
    const parsed = JSON.parse(json.stdout) as {
      files: { client: string; file: string; servers: number; error?: string }[];
      servers: number;
    };
    expect(new Set(parsed.files.map((f) => f.client)).size).toBeGreaterThanOrEqual(15);
    expect(parsed.servers).toBe(7);
    expect(parsed.files.find((f) => f.file === path.join(h.home, '.claude.json'))).toMatchObject({
      client: 'Claude Code',
      servers: 2,
    });
  });
});

describe('skipped entries are named with their reason', () => {
  let h: DiscoverHome;
  let cache: string;
  beforeAll(() => {
    h = discoverHome();
    cache = mkdtempSync(path.join(os.tmpdir(), 'idemscan-discover-cache-'));
    // A cloned project's server that reads ${HOME}: a project-scope config gets only --allow-env's variables.
    const servers = { modern: { command: process.execPath, args: [FIXTURES.modernStdio] } };
    const homey = { command: process.execPath, args: ['${HOME}/server.js'] };
    writeFileSync(path.join(h.project, '.mcp.json'), JSON.stringify({ mcpServers: { ...servers, homey } }));
  });
  afterAll(() => h.cleanup());

  it('where: every skipped entry under its file, with its reason; --json lists them', async () => {
    const r = await run(['where'], h, cache);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    const codex = lines.findIndex((l) => /^Codex +user /.test(l));
    expect(lines.slice(codex + 1, codex + 3)).toEqual([
      '    skipped docs: mcp_servers.docs.bearer_token_env_var: IDEMSCAN_TEST_DOCS_TOKEN is not set in the environment',
      '    skipped retired: mcp_servers.retired.enabled: the entry is disabled',
    ]);
    expect(r.stdout).toMatch(/^Claude Code +project +\S+\.mcp\.json {2}1 server, 1 skipped, /m);
    expect(r.stdout).toMatch(
      /^ {4}skipped homey: mcpServers\.homey\.args\[0\]: \$\{HOME\} is not expanded: .*--allow-env HOME/m,
    );
    // A file that cannot be read is its own line's error, not a skipped entry under it.
    expect(r.stdout).not.toMatch(/^ {4}skipped Roo Code/m);
    const json = JSON.parse((await run(['where', '--json'], h, cache)).stdout) as {
      skipped: { name: string; source: string; reason: string }[];
    };
    expect(json.skipped.find((s) => s.name === 'homey')).toMatchObject({ source: path.join(h.project, '.mcp.json') });
  });

  it('scan --discover names a project-scope server skipped for an unexpanded ${VAR}, its file and the flags', async () => {
    const r = await discoverScan(['--timeout', '60000'], h, cache);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `idemscan: skipped homey (${path.join(h.project, '.mcp.json')}): mcpServers.homey.args[0]: \${HOME} is not expanded: `,
    );
    expect(r.stderr).toMatch(
      /--allow-env HOME, when you trust it with that value\); a project-scope server, scanned only with --project-configs --allow-env HOME$/m,
    );
    // Not in the report: it was not part of this scan's list.
    const report = ReportSchema.parse(JSON.parse(r.stdout));
    expect((report.skipped ?? []).map((s) => s.name)).not.toContain('homey');
  });
});

describe('an empty HOME', () => {
  let h: DiscoverHome;
  beforeAll(() => {
    h = emptyHome();
  });
  afterAll(() => h.cleanup());

  it('scan --discover says nothing was found and exits 2 (no targets)', async () => {
    const r = await run(['scan', '--discover', '-q'], h, path.join(h.home, '.cache'));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--discover found no MCP client configuration');
    expect(r.stderr).toContain('no targets to scan');
  });

  it('a file name from a cloned project reaches the terminal escaped', async () => {
    const dir = path.join(h.project, '.continue', 'mcpServers');
    mkdirSync(dir, { recursive: true });
    const name = 'x\u001b]0;pwned\u0007\u001b[2J.yaml';
    writeFileSync(path.join(dir, name), 'mcpServers: [');
    try {
      const r = await run(['scan', '--discover', '--project-configs', '-q'], h, path.join(h.home, '.cache'));
      expect(r.stderr).toContain('skipped Continue (');
      expect(r.stderr).not.toContain('\u001b');
      expect(r.stderr).not.toContain('\u0007');
    } finally {
      rmSync(path.join(dir, name));
    }
  });

  it('where prints that nothing was found and exits 0', async () => {
    const r = await run(['where'], h, path.join(h.home, '.cache'));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`No MCP client configuration found in ${h.home} or ${h.project}.`);
    const json = await run(['where', '--json'], h, path.join(h.home, '.cache'));
    expect(JSON.parse(json.stdout)).toEqual({ files: [], servers: 0, skipped: [] });
  });
});
