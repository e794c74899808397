/**
 * Under bubblewrap, a target file cannot undo the hiding of HOME by naming a credential store as
 * an argument or a cwd (`"${userHome}/.ssh/id_rsa"`), nor any other path under HOME: such paths
 * are not bound back. A server that prints what it reads to stderr shows what it could read.
 * (More hostile cases: sandbox-trust.test.ts.)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import type { TargetInput } from '../../src/targets/types.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
const savedHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = savedHome;
});

const READ =
  "const f = process.argv[1]; try { console.error('read: ' + require('fs').readFileSync(f, 'utf8')) } catch (e) { console.error('denied: ' + e.code) }";

it.skipIf(!hasBwrap)(
  'a path into HOME, dot entry or not, named by the target, is not bound back',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-binds-'));
    const home = path.join(dir, 'home');
    mkdirSync(path.join(home, '.ssh'), { recursive: true });
    mkdirSync(path.join(home, 'project'), { recursive: true });
    writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'SSH-KEY-SECRET');
    writeFileSync(path.join(home, 'project', 'data.txt'), 'PROJECT-FILE');
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
        target('arg', [path.join(home, '.ssh', 'id_rsa')]),
        target('cwd', ['id_rsa'], path.join(home, '.ssh')),
        target('project', [path.join(home, 'project', 'data.txt')]),
      ],
      { sandbox: true, timeoutMs: 20_000 },
    );
    const stderr = Object.fromEntries(
      report.servers.map((s) => [s.name, `${s.failure?.message} ${s.failure?.stderr}`]),
    );
    expect(report.servers.every((s) => s.target.sandbox === 'bubblewrap')).toBe(true);
    expect(stderr.arg).toContain('denied: ENOENT');
    expect(stderr.cwd).not.toContain('SSH-KEY-SECRET');
    expect(stderr.project).toContain('denied: ENOENT'); // ~/project may hold its .env: not bound either
  },
);
