/**
 * PyPI targets for real: a wheel of a pure-Python MCP server, made in the test, in a local PEP 503
 * index; pip installs it offline into a venv in the cache; the scan runs its console script, with
 * and without --sandbox (pyenv's interpreter lives under /root: only its prefix is bound back).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { idemscan } from '../helpers/cli.js';
import { pypiIndex } from '../helpers/pypi-index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-pypi-'));
const cache = path.join(dir, 'cache');
const file = path.join(dir, 'targets.json');
// A secret under HOME that a contained server must not read.
const home = path.join(dir, 'home');
const secret = path.join(home, '.ssh', 'id_rsa');
let index = '';
/** An index other than PyPI's makes another package: its spec and cache entry carry this tag of its URL. */
const tag = () => createHash('sha256').update(index).digest('hex').slice(0, 16);
const entry = () => `idem-py-echo@1.0.0@index-${tag()}`;
const TOKEN = 'pypi-token-5c1e9a7f3b2d';

beforeAll(() => {
  mkdirSync(path.dirname(secret), { recursive: true });
  writeFileSync(secret, 'PRIVATE KEY');
  index = pypiIndex(path.join(dir, 'index'), [
    { name: 'idem-py-echo', version: '1.0.0' },
    { name: 'only-sdist', version: '2.0.0', sdistOnly: true },
  ]);
  writeFileSync(
    file,
    JSON.stringify({
      servers: [
        { name: 'py', pypi: 'idem-py-echo==1.0.0', index, env: { PY_ECHO_TOKEN: TOKEN, PY_ECHO_SECRET_FILE: secret } },
        { name: 'sdist', pypi: 'only-sdist==2.0.0', index },
        { name: 'range', pypi: 'idem-py-echo>=1.0' },
      ],
    }),
  );
});

const env = () => ({ HOME: home });

it(
  'installs a wheel from a file:// index into a venv once, refuses an sdist and a range, and leaves no half entry',
  { timeout: 180_000 },
  async () => {
    const started = performance.now();
    const install = await idemscan(['install', file, '--cache-dir', cache], { env: env() });
    const installMs = Math.round(performance.now() - started);
    expect(install.stdout).toContain(`ok     pypi:idem-py-echo==1.0.0 index:${tag()} (`);
    expect(install.stdout).toContain(`FAILED pypi:only-sdist==2.0.0 index:${tag()}`);
    expect(install.stderr).toMatch(/No matching distribution found for only-sdist==2\.0\.0/);
    expect(install.stderr).toMatch(
      /range \(.*\): servers\[2\]\.pypi: ">" is not "==": not pinned; expected "name==1\.2\.3" with one exact version/,
    );
    expect(install.exitCode).not.toBe(0);
    expect(readdirSync(path.join(cache, 'pypi'))).toEqual([entry()]);
    const again = await idemscan(['install', file, '--cache-dir', cache], { env: env() });
    expect(again.stdout).toContain(`ok     pypi:idem-py-echo==1.0.0 index:${tag()} (cached)`);
    console.log(`pypi install: ${installMs} ms (cold, with the failing sdist beside it)`);
  },
);

it.each([[false], [true]])(
  'scans the console script from the cache (--sandbox: %s), the token passed, the HOME secret hidden only in the sandbox',
  { timeout: 60_000 },
  async (sandboxed) => {
    if (sandboxed && !sandboxPrefix()) return;
    const started = performance.now();
    const scan = await idemscan(
      [
        'scan',
        file,
        '--cache-dir',
        cache,
        '--no-install',
        ...(sandboxed ? ['--sandbox'] : []),
        '--json',
        '-',
        '--out',
        dir,
      ],
      { env: env() },
    );
    const ms = Math.round(performance.now() - started);
    const report = Report.parse(JSON.parse(scan.stdout));
    const py = report.servers.find((s) => s.name === 'py')!;
    expect(py.status, JSON.stringify(py.failure)).toBe('ok');
    expect(py.target).toMatchObject({ pypi: 'idem-py-echo==1.0.0', index, sandbox: sandboxed ? 'bubblewrap' : 'none' });
    expect(py.target.resolved).toBe(path.join(cache, 'pypi', entry(), 'venv', 'bin', 'idem-py-echo'));
    const said = py.tools[0]!.description!;
    expect(said).toMatch(/token-set/);
    expect(said).toMatch(sandboxed ? /secret-unreadable/ : /secret-readable/);
    expect(scan.stdout).not.toContain(TOKEN);
    const sdist = report.servers.find((s) => s.name === 'sdist')!;
    expect(sdist.failure).toMatchObject({
      kind: 'spawn',
      message: expect.stringMatching(
        /^pypi:only-sdist==2\.0\.0 index:[0-9a-f]{16} is not installed: run `idemscan install/,
      ),
    });
    expect(report.manifest?.packages).toEqual([
      `pypi:idem-py-echo==1.0.0 index:${tag()}`,
      `pypi:only-sdist==2.0.0 index:${tag()}`,
    ]);
    console.log(`pypi scan (--sandbox: ${sandboxed}): ${ms} ms for the CLI, ${py.durationMs} ms for the server`);
  },
);

it(
  'runs a pinned uvx entry from the PyPI install instead of downloading at start-up, even under --sandbox',
  { timeout: 120_000 },
  async () => {
    const config = path.join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { py: { command: 'uvx', args: ['--index-url', index, 'idem-py-echo==1.0.0'] } } }),
    );
    const sandbox = sandboxPrefix() ? ['--sandbox'] : [];
    const scan = await idemscan(['scan', config, '--cache-dir', cache, ...sandbox, '--json', '-', '--out', dir], {
      env: env(),
    });
    const [s] = Report.parse(JSON.parse(scan.stdout)).servers;
    expect(s!.status, JSON.stringify(s!.failure)).toBe('ok');
    expect(s!.target).toMatchObject({
      pypi: 'idem-py-echo==1.0.0',
      launcher: { runner: 'uvx', spec: 'idem-py-echo==1.0.0', resolved: false },
    });
    expect(existsSync(path.join(cache, 'pypi', entry(), '.idemscan-installed'))).toBe(true);
  },
);

it(
  'resolves an unpinned uvx entry to the version pip picks from its index, as npx entries are resolved; offline it says why not',
  { timeout: 120_000 },
  async () => {
    const config = path.join(dir, 'mcp-unpinned.json');
    const uvx = (spec: string) => ({ command: 'uvx', args: ['--index-url', index, spec] });
    writeFileSync(config, JSON.stringify({ mcpServers: { py: uvx('idem-py-echo'), sdist: uvx('only-sdist') } }));
    const sandbox = sandboxPrefix() ? ['--sandbox'] : [];
    const scan = await idemscan(['scan', config, '--cache-dir', cache, ...sandbox, '--json', '-', '--out', dir], {
      env: env(),
    });
    const servers = Report.parse(JSON.parse(scan.stdout)).servers;
    const py = servers.find((s) => s.name === 'py')!;
    expect(py.status, JSON.stringify(py.failure)).toBe('ok');
    expect(py.target).toMatchObject({
      pypi: 'idem-py-echo==1.0.0',
      launcher: { runner: 'uvx', spec: 'idem-py-echo', resolved: true },
    });
    // Resolved like any other, then refused by the wheels-only install.
    expect(servers.find((s) => s.name === 'sdist')!.failure!.message).toContain('only-sdist==2.0.0');
    const offline = await idemscan(
      ['scan', config, '--cache-dir', cache, '--no-install', '--json', '-', '--out', dir],
      {
        env: env(),
      },
    );
    const [first] = Report.parse(JSON.parse(offline.stdout)).servers;
    expect(first!.failure!.message).toContain('not pinned: which version of idem-py-echo runs is its index');
  },
);
