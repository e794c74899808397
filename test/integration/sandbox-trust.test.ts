/**
 * What a target file cannot make --sandbox (bubblewrap) reveal: files under any home named as
 * arguments, cwd or through a symlink; idemscan's cache (other packages' entries, OAuth tokens)
 * wherever it lives; and the scratch tmpfs is bounded. A real server probes from inside.
 */
import { randomUUID } from 'node:crypto';
import { accessSync, constants, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { scan } from '../../src/app/scan/scan.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
const writable = (dir: string) => {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
const savedHome = process.env.HOME;
const cleanup: string[] = [];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-trust-'));
  cleanup.push(dir);
});
afterEach(() => {
  process.env.HOME = savedHome;
});
afterAll(() => cleanup.forEach((d) => rmSync(d, { recursive: true, force: true })));

const outcome = (s: ServerReport) => Object.fromEntries(s.tools.map((t) => [t.name, String(t.description)]));
/** Prints what the file at path.join(...argv) holds, or why it could not. */
const READ =
  "const f = require('path').join(...process.argv.slice(1)); try { console.error('read: ' + require('fs').readFileSync(f, 'utf8')) } catch (e) { console.error('denied: ' + e.code) }";

describe.skipIf(!hasBwrap)('--sandbox and paths under homes', () => {
  it(
    'binds nothing under /home, /root or HOME that a target names: other homes, HOME non-dot directories, symlinks into them',
    { timeout: 60_000 },
    async () => {
      const home = path.join(dir, 'home');
      const proj = path.join(home, 'proj');
      mkdirSync(proj, { recursive: true });
      writeFileSync(path.join(proj, '.env'), 'PROJ-ENV-SECRET');
      writeFileSync(path.join(proj, 'package.json'), '{}');
      writeFileSync(path.join(proj, 'index.js'), '');
      // Another user's home (as root /home is writable; elsewhere that case is skipped).
      const other = writable('/home') ? path.join('/home', `idemscan-other-${randomUUID()}`) : undefined;
      if (other) {
        cleanup.push(other);
        mkdirSync(path.join(other, '.ssh'), { recursive: true });
        writeFileSync(path.join(other, '.ssh', 'id_rsa'), 'OTHER-SSH-SECRET');
        symlinkSync(path.join(other, '.ssh', 'id_rsa'), path.join(dir, 'link'));
      }
      mkdirSync(path.join(dir, 'outside'), { recursive: true });
      writeFileSync(path.join(dir, 'outside', 'data.txt'), 'OUTSIDE-FILE');
      process.env.HOME = home;
      const target = (name: string, args: string[], cwd?: string): TargetInput => ({
        name,
        source: 'test',
        transport: 'stdio',
        command: process.execPath,
        args: ['-e', READ, ...args],
        cwd,
      });
      const report = await scan(
        [
          target('proj-arg', [proj, '.env']),
          target('proj-cwd', ['.env'], proj),
          target('proj-file', [path.join(proj, 'index.js'), '..', '.env']),
          ...(other
            ? [
                target('other-home', [path.join(other, '.ssh', 'id_rsa')]),
                target('other-cwd', ['id_rsa'], path.join(other, '.ssh')),
                target('symlink', [path.join(dir, 'link')]),
              ]
            : []),
          target('outside', [path.join(dir, 'outside', 'data.txt')]),
        ],
        { sandbox: true, timeoutMs: 20_000 },
      );
      const stderr = Object.fromEntries(
        report.servers.map((s) => [s.name, `${s.failure?.message} ${s.failure?.stderr}`]),
      );
      expect(report.servers.every((s) => s.target.sandbox === 'bubblewrap')).toBe(true);
      for (const name of [
        'proj-arg',
        'proj-cwd',
        'proj-file',
        ...(other ? ['other-home', 'other-cwd', 'symlink'] : []),
      ]) {
        expect(stderr[name], name).not.toMatch(/SECRET/);
        expect(stderr[name], name).toContain('denied: ENOENT');
      }
      expect(stderr.outside).toContain('read: OUTSIDE-FILE'); // a server's own files outside the homes still work
    },
  );
});

/** zod's package directory, for the fixture's _common.mjs. */
const ZOD = path.dirname(createRequire(import.meta.url).resolve('zod/package.json'));

/** A pinned npm package installed by hand into `cache`, whose bin is the probe server. */
function fakeEntry(cache: string, name: string): string {
  const pkg = path.join(cache, 'npm', `${name}@1.0.0`, 'node_modules', name);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', bin: { [name]: 'server.mjs' } }),
  );
  // The fixture is copied in, with zod beside it: the repository may itself be under a hidden root
  // (CI clones it under /tmp), and only the package's own entry is bound back.
  for (const file of ['hostile-escape.mjs', '_common.mjs'])
    cpSync(path.join(path.dirname(FIXTURES.hostileEscape), file), path.join(pkg, file));
  cpSync(ZOD, path.join(pkg, '..', 'zod'), { recursive: true });
  writeFileSync(path.join(pkg, 'server.mjs'), "import './hostile-escape.mjs';\n");
  return pkg;
}

/** Scans the probe as the npm package `own-server` of a cache that also holds another package, a token and the era memo. */
async function probeCache(
  cwd: string,
  cacheFlag: string,
  cache: string,
  extraEnv: Record<string, string> = {},
): Promise<ServerReport> {
  fakeEntry(cache, 'own-server');
  const otherPkg = fakeEntry(cache, 'other-server');
  writeFileSync(path.join(otherPkg, 'secret.txt'), 'OTHER-ENTRY-SECRET');
  mkdirSync(path.join(cache, 'oauth'), { recursive: true, mode: 0o700 });
  writeFileSync(
    path.join(cache, 'oauth', 'abc.json'),
    JSON.stringify({ version: 1, tokens: { access_token: 'STORED-TOKEN-SECRET' } }),
    { mode: 0o600 },
  );
  writeFileSync(path.join(cache, 'eras.json'), '{"x":"ERA-MEMO"}');
  const file = path.join(cwd, 'targets.json');
  writeFileSync(
    file,
    JSON.stringify({
      servers: [
        {
          name: 'own',
          npm: 'own-server@1.0.0',
          env: {
            MODE: 'probe',
            PROBE_TAG: randomUUID(),
            PROBE_READ: JSON.stringify([
              path.join(cache, 'oauth', 'abc.json'),
              path.join(otherPkg, 'secret.txt'),
              path.join(cache, 'eras.json'),
            ]),
            PROBE_LIST: JSON.stringify([cache, path.join(cache, 'npm'), path.join(cache, 'oauth')]),
            ...extraEnv,
          },
        },
      ],
    }),
  );
  const run = await idemscan(
    [
      'scan',
      'targets.json',
      '--sandbox',
      '--no-install',
      '--cache-dir',
      cacheFlag,
      '--json',
      '-',
      '--out',
      path.join(cwd, 'out'),
    ],
    { cwd },
  );
  expect(run.exitCode, run.stderr).toBe(0);
  const server = Report.parse(JSON.parse(run.stdout)).servers[0]!;
  expect(server.status, JSON.stringify(server.failure)).toBe('ok');
  expect(server.target.sandbox).toBe('bubblewrap');
  expect(run.stdout).not.toMatch(/SECRET|ERA-MEMO/);
  return server;
}

function expectCacheHidden(server: ServerReport): void {
  const o = outcome(server);
  expect(o.read_extra_0, 'token').toMatch(/^denied/);
  expect(o.read_extra_1, 'other entry').toMatch(/^denied/);
  expect(o.read_extra_2, 'era memo').toMatch(/^denied/);
  expect(o.list_extra_0, 'cache').toBe('ok: npm');
  expect(o.list_extra_1, 'npm entries').toBe('ok: own-server@1.0.0');
  expect(o.list_extra_2, 'oauth').toMatch(/^denied/);
}

describe.skipIf(!hasBwrap)("--sandbox and idemscan's cache dir", () => {
  it(
    "a relative --cache-dir inside the working directory is hidden; only the server's own entry is bound back",
    { timeout: 60_000 },
    async () => {
      const cwd = mkdtempSync(path.join(os.tmpdir(), 'idemscan-cwd-'));
      cleanup.push(cwd);
      expectCacheHidden(await probeCache(cwd, '.idemscan-cache', path.join(cwd, '.idemscan-cache')));
    },
  );

  it('a --cache-dir outside every hidden root (/srv/...) is hidden too', { timeout: 60_000 }, async () => {
    const base = writable('/srv') ? '/srv' : path.resolve('.');
    const outside = mkdtempSync(path.join(base, 'idemscan-srv-'));
    cleanup.push(outside);
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'idemscan-cwd-'));
    cleanup.push(cwd);
    expectCacheHidden(await probeCache(cwd, path.join(outside, 'cache'), path.join(outside, 'cache')));
  });

  it(
    'each scratch tmpfs is bounded: writing 80 MiB to /tmp or HOME fails with ENOSPC',
    { timeout: 60_000 },
    async () => {
      const cwd = mkdtempSync(path.join(os.tmpdir(), 'idemscan-cwd-'));
      cleanup.push(cwd);
      const o = outcome(await probeCache(cwd, 'cache', path.join(cwd, 'cache'), { PROBE_FILL_MIB: '80' }));
      expect(o.fill_tmp).toBe('denied: ENOSPC');
      expect(o.fill_home).toBe('denied: ENOSPC');
    },
  );
});
