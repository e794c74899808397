/**
 * Without --sandbox a server still gets its own PID namespace with a fresh /proc (and so a mount
 * namespace): it sees only its own processes and cannot read idemscan's /proc/<pid>/environ.
 * Where that cannot be had, the report says so (`target.sandbox: "none-host-proc"`) and so does
 * the terminal.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { findExecutable } from '../../src/launch/executables.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';
import { execa } from 'execa';

const linux = process.platform === 'linux';
const root = process.getuid?.() === 0;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-proc-'));
  chmodSync(dir, 0o777); // the ordinary-user run writes its report here
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Scans the probe with a canary in idemscan's own environment that the server is not given. */
async function probe(
  opts: { asNobody?: boolean; path?: string } = {},
): Promise<{ server: ServerReport; stderr: string; canary: string }> {
  const canary = `IDEMSCAN_CANARY_${randomUUID().replaceAll('-', '')}`;
  const file = path.join(dir, `targets-${canary}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      servers: [
        {
          name: 'probe',
          command: process.execPath,
          args: [FIXTURES.hostileEscape],
          env: { MODE: 'probe', PROBE_CANARY: canary, PROBE_TAG: canary, PROBE_WRITE_DIR: dir },
        },
      ],
    }),
  );
  chmodSync(file, 0o644);
  const out = path.join(dir, `out-${canary}`);
  const argv = [process.execPath, CLI, 'scan', file, '--json', '-', '--out', out];
  const prefix = opts.asNobody ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
  const env = { PATH: opts.path ?? process.env.PATH, HOME: dir, [canary]: 'CANARY-VALUE' };
  const run = await execa(prefix[0] ?? argv[0]!, [...prefix.slice(1), ...(prefix.length ? argv : argv.slice(1))], {
    reject: false,
    env,
    extendEnv: false,
    timeout: 60_000,
    cwd: dir,
  });
  rmSync(`/tmp/idemscan-probe-${canary}`, { force: true }); // the probe's write to the real /tmp
  expect(run.exitCode, run.stderr).toBe(0);
  const server = Report.parse(JSON.parse(run.stdout)).servers[0]!;
  expect(server.status, JSON.stringify(server.failure)).toBe('ok');
  return { server, stderr: run.stderr, canary };
}

const outcome = (s: ServerReport) => Object.fromEntries(s.tools.map((t) => [t.name, String(t.description)]));

function expectOwnProc(server: ServerReport): void {
  const o = outcome(server);
  expect(server.target.sandbox).toBe('none');
  expect(o.proc_canary).toBe('ok: nowhere');
  // sh (PID 1), env's exec'd server, and whatever node starts: a handful of low PIDs, not the host's.
  const pids = o.proc_pids!.replace(/^ok: /, '').split(',').map(Number);
  expect(Math.max(...pids), o.proc_pids).toBeLessThan(20);
}

it.skipIf(!linux)(
  "default mode: the server sees only its own processes, not idemscan's environment",
  { timeout: 60_000 },
  async () => {
    expectOwnProc((await probe()).server);
  },
);

it.skipIf(!linux || !root || !findExecutable('setpriv'))(
  'default mode as an ordinary user (nobody, in a user namespace): the same',
  { timeout: 60_000 },
  async () => {
    expectOwnProc((await probe({ asNobody: true })).server);
  },
);

it.skipIf(!linux)(
  "where unshare is missing, the report and the terminal say the server sees the host's processes",
  { timeout: 60_000 },
  async () => {
    const bin = path.join(dir, 'bin-no-unshare');
    mkdirSync(bin, { recursive: true });
    for (const tool of ['sh', 'setpriv', 'env']) {
      const found = findExecutable(tool);
      if (found && !existsSync(path.join(bin, tool))) symlinkSync(found, path.join(bin, tool));
    }
    const { server, stderr, canary } = await probe({ path: bin });
    expect(server.target.sandbox).toBe('none-host-proc');
    expect(outcome(server).proc_canary).not.toBe('ok: nowhere'); // what that means, shown
    expect(stderr).toMatch(/servers see this machine's processes/);
    expect(JSON.stringify(server)).not.toContain(canary + '=CANARY');
  },
);
