/**
 * A read-only bind does not stop connect(): under --sandbox a target file must not get a host Unix
 * socket under /tmp bound back, by naming the socket, a directory that holds one (as an argument or
 * its cwd), or a file of a package directory that holds one. A real listener counts what reaches it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import type { TargetInput } from '../../src/targets/types.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
let dir: string;
let listener: net.Server;
let connections = 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-sockets-'));
  mkdirSync(path.join(dir, 'agent'));
  mkdirSync(path.join(dir, 'pkg', 'deep', 'er'), { recursive: true });
  writeFileSync(path.join(dir, 'pkg', 'package.json'), '{}');
  writeFileSync(path.join(dir, 'pkg', 'index.js'), '');
  mkdirSync(path.join(dir, 'clean'));
  writeFileSync(path.join(dir, 'clean', 'data.txt'), 'CLEAN-FILE');
  listener = net.createServer((s) => (connections++, s.destroy()));
  await new Promise<void>((resolve) => listener.listen(path.join(dir, 'agent', 'agent.sock'), resolve));
  // The same listener at a second path, deep inside a package directory.
  const deep = net.createServer((s) => (connections++, s.destroy()));
  await new Promise<void>((resolve) => deep.listen(path.join(dir, 'pkg', 'deep', 'er', 'ipc.sock'), resolve));
  listener.on('close', () => deep.close());
});
afterAll(() => {
  listener.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Connects to path.join(...argv) (`--socket=` dropped), prints what came of it, and reads a file the same way when told to. */
const CONNECT = `const p = require('path').join(...process.argv.slice(1).map((a) => a.replace(/^--socket=/, '')));
if (p.endsWith('.txt')) { try { console.error('read: ' + require('fs').readFileSync(p, 'utf8')) } catch (e) { console.error('denied: ' + e.code) } }
else { const s = require('net').connect(p); s.on('connect', () => { console.error('connected'); process.exit(0) }); s.on('error', (e) => { console.error('denied: ' + e.code); process.exit(0) }) }`;

describe.skipIf(!hasBwrap)('--sandbox and Unix sockets under /tmp', () => {
  it(
    'never binds a socket a target names, nor a directory or package that holds one; a clean directory still works',
    { timeout: 60_000 },
    async () => {
      const target = (name: string, args: string[], cwd?: string): TargetInput => ({
        name,
        source: 'test',
        transport: 'stdio',
        command: process.execPath,
        args: ['-e', CONNECT, '--', ...args],
        cwd,
      });
      const sock = path.join(dir, 'agent', 'agent.sock');
      const report = await scan(
        [
          target('socket-arg', [sock]),
          target('dir-arg', [path.join(dir, 'agent'), 'agent.sock']),
          target('dir-cwd', ['agent.sock'], path.join(dir, 'agent')),
          target('flag-arg', [`--socket=${sock}`]),
          target('package-file', [path.join(dir, 'pkg', 'index.js'), '..', 'deep', 'er', 'ipc.sock']),
          target('clean-dir', [path.join(dir, 'clean'), 'data.txt']),
        ],
        { sandbox: true, timeoutMs: 20_000 },
      );
      const stderr = Object.fromEntries(
        report.servers.map((s) => [s.name, `${s.failure?.message} ${s.failure?.stderr}`]),
      );
      expect(report.servers.every((s) => s.target.sandbox === 'bubblewrap')).toBe(true);
      for (const name of ['socket-arg', 'dir-arg', 'dir-cwd', 'flag-arg', 'package-file']) {
        expect(stderr[name], name).not.toContain('connected');
        expect(stderr[name], name).toMatch(/denied: (ENOENT|ECONNREFUSED)/);
      }
      expect(connections).toBe(0);
      expect(stderr['clean-dir']).toContain('read: CLEAN-FILE'); // a directory without sockets is still bound
    },
  );
});
