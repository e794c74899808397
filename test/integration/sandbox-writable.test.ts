/**
 * `--writable PATH` and the paths a sandboxed server is given (issue 29, docs/SANDBOX.md), through
 * the built CLI against real servers under bubblewrap: a directory the user binds is written for
 * real (the file is read outside afterwards); what would undo the hiding is refused; a path
 * argument or env value the sandbox hides stops the run before the server starts (scan: a warning);
 * and a server installed with `npm install --prefix DIR` resolves its dependencies.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { scan } from '../../src/app/scan/scan.js';
import { probe as probeCall } from '../../src/app/probe/probe.js';
import { ScanInputError } from '../../src/app/scan/scan-input.js';
import { parsePlan } from '../../src/model/probe-plan.js';
import type { ProgressEvent } from '../../src/app/scan/scan-options.js';
import { Report } from '../../src/model/schema.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
if (!hasBwrap) console.warn('sandbox-writable.test.ts: skipped, bubblewrap (bwrap) does not work on this machine');

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'idemscan-writable-')));
const PLAN = path.join(dir, 'plan.json');
writeFileSync(
  PLAN,
  JSON.stringify({ tools: { create_order: { arguments: { item: 'a' }, observe: { tool: 'get_counts' } } } }),
);
const probe = (extra: string[], target = ['--', process.execPath, FIXTURES.probeStdio], env?: Record<string, string>) =>
  idemscan(['probe', '--plan', PLAN, ...extra, ...target], env && { env });

describe.skipIf(!hasBwrap)('--writable', () => {
  it(
    'a directory the user binds is written by the sandboxed server, and the report names it',
    { timeout: 60_000 },
    async () => {
      const backend = mkdtempSync(path.join(dir, 'backend-'));
      const effects = path.join(backend, 'effects.json');
      const json = path.join(dir, 'report.json');
      const run = await probe(['--sandbox', '--writable', backend, '--env', `EFFECTS_FILE=${effects}`, '--json', json]);
      expect(run.exitCode, run.stderr).toBe(0);
      // The server's own count, written inside the sandbox, read here outside it.
      expect(JSON.parse(readFileSync(effects, 'utf8'))).toMatchObject({ orders: 1 });
      const report = Report.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(report.servers[0]!.target).toMatchObject({ sandbox: 'bubblewrap', writable: [backend] });
      expect(report.options.writable).toEqual([backend]);
      // The same lines scan and audit say after their table: the containment, and what it opens.
      expect(run.stderr).toContain('idemscan: sandbox for 1 stdio server: bubblewrap');
      expect(run.stderr).toContain(`idemscan: writable inside the sandbox of every server (--writable): ${backend}`);
    },
  );

  it('without --writable the same file is refused before the server starts, naming the variable and the flag', async () => {
    const backend = mkdtempSync(path.join(dir, 'unbound-'));
    const store = path.join(backend, 'memory.json');
    writeFileSync(store, '{}');
    const calls = path.join(dir, 'unbound-calls.log');
    const run = await probe(['--sandbox', '--env', `MEMORY_FILE_PATH=${store}`, '--env', `CALLS_LOG=${calls}`]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`env MEMORY_FILE_PATH names ${store}, which the sandbox hides`);
    expect(run.stderr).toContain('--writable');
    expect(existsSync(calls)).toBe(false); // nothing was started, let alone called
    expect(readFileSync(store, 'utf8')).toBe('{}');
  });

  it('a store that does not exist yet is refused by probe, not by audit, whose listing writes nothing', async () => {
    const store = path.join(mkdtempSync(path.join(dir, 'not-yet-')), 'memory.json');
    const target = ['--env', `MEMORY_FILE_PATH=${store}`, '--', process.execPath, FIXTURES.probeStdio];
    const probed = await probe(['--sandbox', '--env', `MEMORY_FILE_PATH=${store}`]);
    expect(probed.exitCode).toBe(2);
    expect(probed.stderr).toContain(`env MEMORY_FILE_PATH names ${store}, which does not exist yet`);
    const audited = await idemscan(['audit', '--sandbox', ...target]);
    expect(audited.exitCode, audited.stderr).toBe(0);
    expect(audited.stderr).not.toContain('does not exist yet');
  });

  it(
    'an argument under HOME is refused by probe; audit and scan list without advice, and name it only when the server fails',
    { timeout: 60_000 },
    async () => {
      const home = mkdtempSync(path.join(dir, 'home-'));
      mkdirSync(path.join(home, 'data'));
      const db = path.join(home, 'data', 'data.db');
      writeFileSync(db, '');
      const env = { HOME: home, IDEMSCAN_CACHE: path.join(dir, 'cache') };
      const target = ['--', process.execPath, FIXTURES.probeStdio, db];
      expect((await probe(['--sandbox'], target, env)).stderr).toContain(`argument 2 names ${db}`);
      const audited = await idemscan(['audit', '--sandbox', ...target], { env });
      expect(audited.exitCode, audited.stderr).toBe(0);
      expect(audited.stderr).not.toContain('--writable');
      // A server that exits without its file: the failure says what the sandbox hid, and no read-write bind.
      const needy = ['-e', 'process.exit(require("fs").existsSync(process.argv[1]) ? 0 : 3)', db];
      const list = path.join(dir, 'list.json');
      const entries = {
        backend: { command: process.execPath, args: [FIXTURES.probeStdio, db] },
        needy: { command: process.execPath, args: needy },
      };
      writeFileSync(list, JSON.stringify({ mcpServers: entries }));
      const json = path.join(dir, 'scan.json');
      const scanned = await idemscan(['scan', '--sandbox', list, '--json', json], { env });
      expect(scanned.stderr).not.toContain('--writable');
      const servers = Report.parse(JSON.parse(readFileSync(json, 'utf8'))).servers;
      expect(servers.find((s) => s.name === 'backend')).toMatchObject({ status: 'ok' });
      const failure = servers.find((s) => s.name === 'needy')!.failure!;
      expect(failure.message).toContain(`the sandbox hid ${db} (argument 3) from it`);
      expect(failure.message).not.toContain('--writable');
    },
  );

  it('refuses /, HOME, a parent of HOME, a hidden root, the cache, a missing path, and --writable without --sandbox', async () => {
    const home = mkdtempSync(path.join(dir, 'refuse-home-'));
    const cache = path.join(dir, 'refuse-cache');
    mkdirSync(cache);
    const env = { HOME: home, IDEMSCAN_CACHE: cache };
    // A directory under /tmp that holds a listening socket (an ssh-agent's): binding it would reach the socket.
    const agent = mkdtempSync(path.join(dir, 'agent-'));
    const listener = net.createServer().listen(path.join(agent, 'agent.sock'));
    await once(listener, 'listening');
    const cases: [string[], string][] = [
      [['--sandbox', '--writable', agent], 'holds a Unix socket'],
      [['--sandbox', '--writable', '/'], 'is the root directory'],
      [['--sandbox', '--writable', home], 'is HOME, which the sandbox hides'],
      [['--sandbox', '--writable', dir], 'holds HOME, which the sandbox hides'],
      [['--sandbox', '--writable', '/var/tmp'], 'is /var/tmp, which the sandbox hides'],
      [['--sandbox', '--writable', '/run'], 'is /run, which the sandbox hides'],
      [['--sandbox', '--writable', cache], "idemscan's cache"],
      [['--sandbox', '--writable', path.join(dir, 'absent')], 'does not exist'],
      [['--writable', home], 'give --sandbox too'],
    ];
    for (const [flags, words] of cases) {
      const run = await probe(flags, ['--', process.execPath, FIXTURES.probeStdio], env);
      expect(run.exitCode, flags.join(' ')).toBe(2);
      expect(run.stderr).toContain(words);
      expect(run.stderr).toContain('--writable');
    }
    listener.close();
  });
});

describe.skipIf(!hasBwrap)('the library calls make the same checks', () => {
  const plan = parsePlan(JSON.parse(readFileSync(PLAN, 'utf8')));
  const fixture = {
    kind: 'command',
    name: 'fx',
    source: 'test',
    transport: 'stdio',
    command: process.execPath,
  } as const;
  const rejection = async (run: Promise<unknown>) => {
    const err = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ScanInputError);
    return err as ScanInputError;
  };

  it('probe() refuses writable without sandbox, a directory that undoes the hiding, and a hidden store', async () => {
    const backend = mkdtempSync(path.join(dir, 'lib-'));
    const target = { ...fixture, args: [FIXTURES.probeStdio] };
    const noSandbox = await rejection(probeCall(target, plan, { writable: [backend] }));
    expect(noSandbox.field).toBe('options.writable');
    expect(noSandbox.message).toContain('sandbox: true');
    const root = await rejection(probeCall(target, plan, { sandbox: true, writable: ['/'] }));
    expect(root.message).toContain('is the root directory');
    // A store the server would create: it does not exist yet, its directory is hidden (under /tmp).
    const store = path.join(backend, 'memory.jsonl');
    const calls = path.join(backend, 'calls.log');
    const hidden = await rejection(
      probeCall({ ...target, env: { MEMORY_FILE_PATH: store, CALLS_LOG: calls } }, plan, { sandbox: true }),
    );
    expect(hidden.field).toBe('target.env.MEMORY_FILE_PATH');
    expect(hidden.message).toContain(`names ${store}, which does not exist yet`);
    expect(hidden.message).toContain('writable');
    expect(existsSync(calls)).toBe(false); // nothing was started
    // Bound, the same probe runs, and the server creates the store for real.
    const env = { EFFECTS_FILE: path.join(backend, 'effects.json') };
    const { report } = await probeCall({ ...target, env }, plan, {
      sandbox: true,
      writable: [backend],
      timeoutMs: 20_000,
    });
    expect(report.servers[0]!.status, report.servers[0]!.failure?.stderr).toBe('ok');
    expect(existsSync(env.EFFECTS_FILE)).toBe(true);
  });

  it('probe() refuses a cwd the sandbox hides', async () => {
    const home = mkdtempSync(path.join(dir, 'cwd-home-'));
    mkdirSync(path.join(home, 'project'));
    const savedHome = process.env.HOME;
    process.env.HOME = home;
    try {
      const target = { ...fixture, args: [FIXTURES.probeStdio], cwd: path.join(home, 'project') };
      const err = await rejection(probeCall(target, plan, { sandbox: true, cacheDir: path.join(dir, 'cwd-cache') }));
      expect(err.field).toBe('target.cwd');
    } finally {
      process.env.HOME = savedHome;
    }
  });

  it('scan() warns of no hidden path, names one in the failure of a server that needs it, and refuses a bad writable', async () => {
    const data = mkdtempSync(path.join(dir, 'lib-scan-'));
    const events: ProgressEvent[] = [];
    const target = { name: 'fx', source: 'test', transport: 'stdio', command: process.execPath } as const;
    const options = { sandbox: true, timeoutMs: 20_000, onProgress: (e: ProgressEvent) => events.push(e) };
    const listed = await scan([{ ...target, args: [FIXTURES.probeStdio], env: { DATA: data } }], options);
    expect(listed.servers[0]!.status).toBe('ok');
    const needy = ['-e', 'process.exit(require("fs").existsSync(process.env.DATA) ? 0 : 3)'];
    const failed = await scan([{ ...target, args: needy, env: { DATA: data } }], options);
    expect(failed.servers[0]!.failure!.message).toContain(`the sandbox hid ${data} (env DATA) from it`);
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    const err = await rejection(scan([target], { sandbox: true, writable: [path.join(dir, 'absent')] }));
    expect(err.field).toBe('options.writable');
    expect(err.message).toContain('does not exist');
  });
});

/** A server package with a dependency, as `npm install --prefix DIR` lays it out (the SDK linked in). */
function prefixLayout(prefix: string): string {
  const modules = path.join(prefix, 'node_modules');
  const pkg = path.join(modules, 'fx-server');
  mkdirSync(path.join(pkg, 'dist'), { recursive: true });
  mkdirSync(path.join(modules, '@modelcontextprotocol'));
  const real = (name: string) => realpathSync(path.join(process.cwd(), 'node_modules', name));
  symlinkSync(real('@modelcontextprotocol/sdk'), path.join(modules, '@modelcontextprotocol', 'sdk'));
  symlinkSync(real('zod'), path.join(modules, 'zod'));
  writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: 'fx-server', version: '1.0.0', type: 'module' }),
  );
  writeFileSync(
    path.join(pkg, 'dist', 'index.js'),
    [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';",
      "const server = new McpServer({ name: 'fx', version: '1.0.0' });",
      "server.registerTool('ping', { description: 'Ping.', annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));",
      'await server.connect(new StdioServerTransport());',
    ].join('\n'),
  );
  return path.join(pkg, 'dist', 'index.js');
}

describe.skipIf(!hasBwrap)('a server run by path from an npm install --prefix layout', () => {
  it(
    'starts under --sandbox, under /tmp and under HOME, and the rest of HOME stays hidden',
    { timeout: 60_000 },
    async () => {
      const home = mkdtempSync(path.join(dir, 'prefix-home-'));
      writeFileSync(path.join(home, '.env'), 'SECRET=1');
      const inTmp = prefixLayout(path.join(dir, 'prefix'));
      const inHome = prefixLayout(path.join(home, 'servers'));
      const savedHome = process.env.HOME;
      process.env.HOME = home;
      try {
        const report = await scan(
          [
            { name: 'tmp', source: 'test', transport: 'stdio', command: process.execPath, args: [inTmp] },
            { name: 'home', source: 'test', transport: 'stdio', command: process.execPath, args: [inHome] },
            {
              name: 'peek',
              source: 'test',
              transport: 'stdio',
              command: process.execPath,
              args: ['-e', `require('fs').readFileSync(${JSON.stringify(path.join(home, '.env'))})`, inHome],
            },
          ],
          { sandbox: true, timeoutMs: 20_000, cacheDir: path.join(dir, 'prefix-cache') },
        );
        const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
        expect(byName.tmp!.status, byName.tmp!.failure?.stderr).toBe('ok');
        expect(byName.home!.status, byName.home!.failure?.stderr).toBe('ok');
        expect(byName.tmp!.tools.map((t) => t.name)).toEqual(['ping']);
        // HOME's own files are not bound with the node_modules below it.
        expect(byName.peek!.failure?.stderr).toContain('ENOENT');
        // audit's check of what the user typed knows the script is shown: no refusal.
        const env = { HOME: home, IDEMSCAN_CACHE: path.join(dir, 'prefix-cache') };
        const audited = await idemscan(['audit', '--sandbox', '--', process.execPath, inHome], { env });
        expect(audited.exitCode, audited.stderr).toBe(0);
      } finally {
        process.env.HOME = savedHome;
      }
    },
  );
});

const venvWorks = hasBwrap && spawnSync('python3', ['-m', 'venv', '--help'], { stdio: 'ignore' }).status === 0;
if (hasBwrap && !venvWorks)
  console.warn('sandbox-writable.test.ts: the venv case skipped, python3 -m venv does not work here');

describe.skipIf(!venvWorks)('a Python venv run by path', () => {
  it(
    'under HOME imports from its site-packages under --sandbox; HOME itself stays hidden',
    { timeout: 60_000 },
    async () => {
      const home = mkdtempSync(path.join(dir, 'venv-home-'));
      writeFileSync(path.join(home, '.env'), 'SECRET=1');
      const venv = path.join(home, 'venv');
      expect(spawnSync('python3', ['-m', 'venv', '--without-pip', venv]).status).toBe(0);
      const lib = readdirSync(path.join(venv, 'lib')).find((n) => n.startsWith('python'))!;
      const mod = path.join(venv, 'lib', lib, 'site-packages', 'probe_mod');
      mkdirSync(mod, { recursive: true });
      writeFileSync(path.join(mod, '__init__.py'), 'X = 41');
      const code = `import sys, probe_mod; print("prefix", sys.prefix, probe_mod.X + 1, file=sys.stderr); open(${JSON.stringify(path.join(home, '.env'))})`;
      const savedHome = process.env.HOME;
      process.env.HOME = home;
      try {
        const report = await scan(
          [
            {
              name: 'venv',
              source: 'test',
              transport: 'stdio',
              command: path.join(venv, 'bin', 'python'),
              args: ['-c', code],
            },
          ],
          { sandbox: true, timeoutMs: 20_000, cacheDir: path.join(dir, 'venv-cache') },
        );
        const stderr = report.servers[0]!.failure?.stderr ?? '';
        expect(stderr).toContain(`prefix ${venv} 42`);
        expect(stderr).toContain('FileNotFoundError'); // ~/.env: not bound with the venv
      } finally {
        process.env.HOME = savedHome;
      }
    },
  );
});
