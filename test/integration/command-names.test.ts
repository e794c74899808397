/** A server whose command path holds `=` still starts, with exactly the environment it was given. */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contain } from '../../src/launch/sandbox.js';
import { serverEnv } from '../../src/launch/server-env.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-eq-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a command named with "="', () => {
  it('runs in the default mode instead of being read as an assignment by env', () => {
    const command = path.join(dir, 'a=b');
    // A node script: a shell script's own sh would add PWD itself.
    writeFileSync(
      command,
      `#!${process.execPath}\nconsole.log('ran', process.argv.length - 2, process.argv[2]);\nfor (const [k, v] of Object.entries(process.env).sort()) console.log(\`\${k}=\${v}\`);\n`,
    );
    chmodSync(command, 0o755);
    const launch = contain({ command, args: ['x'], env: { KEEP: '1' } }, { sandbox: false });
    const run = spawnSync(launch.command, launch.args, { env: launch.env, encoding: 'utf8', timeout: 20_000 });
    expect(run.stdout.split('\n')[0], run.stderr).toBe('ran 1 x');
    // What the server was given and nothing the wrappers add (sh's PWD, SHLVL, _, the carrier).
    const given = Object.entries(serverEnv({ KEEP: '1' })).sort(([a], [b]) => (a < b ? -1 : 1));
    expect(run.stdout.split('\n').slice(1).filter(Boolean)).toEqual(given.map(([k, v]) => `${k}=${v}`));
  });
});
