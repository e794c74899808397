/**
 * What a server can read, write and reach under --sandbox (bubblewrap, and the network-only
 * fallback where bwrap is missing), checked by a real server probing from inside, and the spawn
 * failures a wrapper must not hide.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { scan } from '../../src/app/scan/scan.js';
import { findExecutable } from '../../src/launch/executables.js';
import { devNullNote, sandboxPrefix } from '../../src/launch/sandbox.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { waitGone } from '../helpers/processes.js';
import { killTagged, tagged } from '../helpers/tagged.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
const ip = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
let dir: string;
let listener: net.Server;
let connections = 0;
let connectTo: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-sandbox-'));
  const home = path.join(dir, 'home');
  for (const [file, text] of [
    ['.ssh/id_rsa', 'SSH-KEY-SECRET'],
    ['.npmrc', '//registry.npmjs.org/:_authToken=NPMRC-SECRET'],
    ['.aws/credentials', 'AWS-SECRET'],
  ]) {
    mkdirSync(path.dirname(path.join(home, file!)), { recursive: true });
    writeFileSync(path.join(home, file!), text!);
  }
  mkdirSync(path.join(dir, 'outside'));
  mkdirSync(path.join(dir, 'project'));
  // A listener on a non-loopback address of this machine: reachable unless the network is cut.
  listener = net.createServer((s) => (connections++, s.destroy())).listen(0, '0.0.0.0');
  await new Promise((r) => listener.once('listening', r));
  connectTo = `${ip ?? '192.0.2.1'}:${(listener.address() as net.AddressInfo).port}`;
});
const tags: string[] = [];
afterAll(() => {
  listener.close();
  tags.forEach(killTagged);
});

/** Scans the probe server (and an escaping one, to check that the wrapper ends its children). */
async function probe(
  flags: string[],
  env: Record<string, string> = {},
): Promise<{ server: ServerReport; stderr: string; tag: string }> {
  const tag = randomUUID();
  tags.push(tag);
  for (const f of ['home/probe-written', 'outside/probe-written', 'project/probe-written'])
    rmSync(path.join(dir, f), { force: true });
  const file = path.join(dir, `targets-${tag}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      servers: [
        {
          name: 'probe',
          command: process.execPath,
          args: [FIXTURES.hostileEscape],
          cwd: path.join(dir, 'project'),
          env: { MODE: 'probe', PROBE_WRITE_DIR: path.join(dir, 'outside'), PROBE_TAG: tag, PROBE_CONNECT: connectTo },
        },
        {
          name: 'escape',
          command: process.execPath,
          args: [FIXTURES.hostileEscape],
          env: { MODE: 'detached', ESCAPE_TAG: tag },
        },
      ],
    }),
  );
  const run = await idemscan(['scan', file, '--json', '-', '--out', path.join(dir, 'out'), ...flags], {
    env: { HOME: path.join(dir, 'home'), ...env },
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const servers = Report.parse(JSON.parse(run.stdout)).servers;
  for (const s of servers) expect(s.status, JSON.stringify(s.failure)).toBe('ok');
  expect(await waitGone(tagged(tag)), 'processes left').toEqual([]);
  return { server: servers.find((s) => s.name === 'probe')!, stderr: run.stderr, tag };
}

const outcome = (s: ServerReport) => Object.fromEntries(s.tools.map((t) => [t.name, String(t.description)]));
const writtenOnHost = (tag: string) =>
  ['home/probe-written', 'outside/probe-written', 'project/probe-written']
    .filter((f) => existsSync(path.join(dir, f)))
    .concat(existsSync(`/tmp/idemscan-probe-${tag}`) ? ['/tmp'] : []);

describe('--sandbox', () => {
  it(
    'without it, the probe reads the planted secrets and writes everywhere (so the probe works)',
    { timeout: 60_000 },
    async () => {
      const { server, tag } = await probe([]);
      const o = outcome(server);
      expect(server.target.sandbox).toBe('none');
      expect([o.read_ssh_key, o.read_npmrc, o.read_aws]).toEqual([
        'ok: SSH-KEY-SECRET',
        'ok: //registry.npmjs.org/:_authToken=NPMRC-SECRET',
        'ok: AWS-SECRET',
      ]);
      expect(writtenOnHost(tag)).toHaveLength(4);
      rmSync(`/tmp/idemscan-probe-${tag}`, { force: true });
    },
  );

  it.skipIf(!hasBwrap)(
    'bubblewrap: reads no secret, writes nothing outside its scratch, reaches nothing',
    { timeout: 60_000 },
    async () => {
      const before = connections;
      const { server, tag, stderr } = await probe(['--sandbox']);
      const o = outcome(server);
      expect(server.target.sandbox).toBe('bubblewrap');
      // No word of a weaker sandbox; only of this machine's /dev/null, where it is a plain file.
      expect(stderr.split('\n').filter((l) => l.includes('--sandbox:'))).toEqual(
        devNullNote() ? [`idemscan: ${devNullNote()}`] : [],
      );
      expect(JSON.stringify(server)).not.toMatch(/SECRET/);
      for (const check of ['read_ssh_key', 'read_npmrc', 'read_aws', 'write_outside', 'write_cwd', 'connect_out'])
        expect(o[check], check).toMatch(/^denied/);
      expect(o.read_passwd).toMatch(/^ok: /); // the system stays readable
      expect(writtenOnHost(tag)).toEqual([]); // HOME and /tmp are scratch: written inside, gone after
      expect(connections).toBe(before);
    },
  );

  it(
    'falls back to the network-only namespace where bwrap is missing, says so once, still ends escaped children',
    { timeout: 60_000 },
    async () => {
      // A PATH with the tools of a fresh machine but no bwrap.
      const bin = path.join(dir, 'bin-no-bwrap');
      mkdirSync(bin, { recursive: true });
      for (const tool of ['sh', 'env', 'unshare', 'setpriv', 'ip']) {
        const found = findExecutable(tool);
        if (found && !existsSync(path.join(bin, tool))) symlinkSync(found, path.join(bin, tool));
      }
      const before = connections;
      const { server, stderr, tag } = await probe(['--sandbox'], { PATH: bin });
      const o = outcome(server);
      expect(stderr.split('\n').filter((l) => l.includes('--sandbox:'))).toHaveLength(1);
      expect(server.target.sandbox).toBe('netns');
      expect(o.connect_out).toMatch(/^denied/);
      expect(connections).toBe(before);
      expect(o.read_ssh_key).toMatch(/^ok/); // documented: the fallback does not protect files
      rmSync(`/tmp/idemscan-probe-${tag}`, { force: true });
    },
  );
});

describe('spawn failures through a wrapper', () => {
  it.each([false, true])('a missing cwd says so (sandbox: %s)', async (sandbox) => {
    const report = await scan(
      [
        {
          name: 'nocwd',
          source: 'test',
          transport: 'stdio',
          command: process.execPath,
          args: [FIXTURES.hostileEscape],
          cwd: path.join(os.tmpdir(), `no-such-dir-${randomUUID()}`),
        },
      ],
      { sandbox: sandbox && !!sandboxPrefix() },
    );
    const s = report.servers[0]!;
    expect(s.failure?.kind).toBe('spawn');
    expect(s.failure?.message).toMatch(/cwd ".*no-such-dir-.*" does not exist/);
  });

  it('a missing command is a spawn failure, not "exited with code 127"', async () => {
    const report = await scan([
      { name: 'nocmd', source: 'test', transport: 'stdio', command: '/nonexistent/mcp-server' },
    ]);
    expect(report.servers[0]!.failure).toMatchObject({
      kind: 'spawn',
      message: 'cannot start "/nonexistent/mcp-server": ENOENT',
    });
  });
});
