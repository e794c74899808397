/**
 * Hints name the command the user ran (model/invocation.ts), through the built CLI: `node` and the
 * path of main.js in a clone, `idemscan` when the bin on PATH is this program, `npx idemscan`
 * through npm exec.
 */
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-invoked-'));
const bin = path.join(dir, 'bin');
mkdirSync(bin);
symlinkSync(CLI, path.join(bin, 'idemscan'));
const list = path.join(dir, 't.json');
writeFileSync(
  list,
  JSON.stringify({ servers: [{ name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio] }] }),
);
const PATH = `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`;

/** A mistyped flag: the error's last line is where the help is, as the user would ask for it. */
async function seeLine(program: string, args: string[], env: Record<string, string>, cwd = dir) {
  const r = await execa(program, [...args, 'scan', '--timout', '5'], { reject: false, cwd, env, extendEnv: false });
  expect(r.exitCode).toBe(2);
  return r.stderr.split('\n').at(-1);
}

describe('the command a hint names', () => {
  it('in a clone, run as node dist/cli/main.js: that, relative to the working directory', async () => {
    expect(await seeLine(process.execPath, ['dist/cli/main.js'], { PATH: '/usr/bin:/bin' }, repo)).toBe(
      'see: node dist/cli/main.js scan --help',
    );
  });

  it('the bin on PATH: idemscan; through npm exec: npx idemscan', async () => {
    const idemscan = path.join(bin, 'idemscan');
    expect(await seeLine(idemscan, [], { PATH })).toBe('see: idemscan scan --help');
    expect(await seeLine(idemscan, [], { PATH, npm_command: 'exec' })).toBe('see: npx idemscan scan --help');
  });

  it('the HTML hint after a scan, and the tools command under the table', async () => {
    const r = await execa(path.join(bin, 'idemscan'), ['scan', list, '--out', 'o', '--timeout', '15000'], {
      reject: false,
      cwd: dir,
      env: { PATH, COLUMNS: '200' },
      extendEnv: false,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('browser: idemscan report o/report.json --format html (or scan with');
    expect(r.stdout).toContain(
      'Every tool with its verdict and evidence: idemscan report o/report.json --format tools',
    );
  }, 60_000);
});
