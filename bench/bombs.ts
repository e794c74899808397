/**
 * Each deadline bomb (test/fixtures/servers/hostile-deadline.mjs) scanned by the built CLI beside a
 * healthy server, with --timeout TIMEOUT_MS. Prints the wall time of the whole scan against the
 * timeout, what became of the bomb and of the healthy server beside it, and how long a SIGTERM
 * sent while the bomb is being processed takes to end the scan.
 *   npm run build && node --import tsx bench/bombs.ts [TIMEOUT_MS] [CLI] [MODES]
 * CLI defaults to this checkout's dist/cli/main.js; point it at another build to compare.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { FIXTURES } from '../test/fixtures/index.js';
import { spawnLog } from '../test/helpers/processes.js';

const ALL = ['caps-tool-name', 'caps-property-name', 'ref-chain', 'wide-dag', 'many-chains', 'deep-description'];
const [timeoutArg, cliArg, modesArg] = process.argv.slice(2);
const timeoutMs = Number(timeoutArg ?? 20_000);
const cli = path.resolve(cliArg ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url)));
const modes = modesArg ? modesArg.split(',') : ALL;
/** Give up on a scan after three timeouts: the old code takes minutes on some bombs. */
const CAP_MS = 3 * timeoutMs;

interface ServerOut {
  name: string;
  status: string;
  failure?: { kind: string; message: string };
  durationMs: number;
  tools: unknown[];
}

async function run(mode: string, signalAfterListed: boolean) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bombs-'));
  const log = spawnLog();
  const env = { IDEMSCAN_FIXTURE_LOG: log.file };
  const file = path.join(dir, 'targets.json');
  writeFileSync(
    file,
    JSON.stringify({
      servers: [
        { name: 'bomb', command: process.execPath, args: [FIXTURES.hostileDeadline], env: { ...env, MODE: mode } },
        signalAfterListed
          ? { name: 'hang', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } }
          : { name: 'healthy', command: process.execPath, args: [FIXTURES.legacyStdio], env },
      ],
    }),
  );
  const started = performance.now();
  const child = execa(
    process.execPath,
    [cli, 'scan', file, '--out', dir, '--timeout', String(timeoutMs), '--concurrency', '2', '-q'],
    { reject: false, timeout: CAP_MS, killSignal: 'SIGKILL', forceKillAfterDelay: false },
  );
  let signalledAt: number | undefined;
  if (signalAfterListed) {
    while (!log.entries().some((e) => e.name === `deadline-${mode}-listed`) && performance.now() - started < CAP_MS)
      await new Promise((r) => setTimeout(r, 20));
    signalledAt = performance.now();
    child.kill('SIGTERM');
  }
  const result = await child;
  const wall = performance.now() - started;
  let report: { options: { interrupted?: boolean }; servers: ServerOut[] } | undefined;
  try {
    report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
  } catch {
    report = undefined;
  }
  rmSync(dir, { recursive: true, force: true });
  // An old build killed at the cap leaves its servers behind: end them (they were started here).
  for (const { pid } of log.entries()) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return {
    wall,
    exit: result.timedOut ? 'killed (cap)' : String(result.exitCode),
    report,
    afterSignal: signalledAt === undefined ? undefined : performance.now() - signalledAt,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const describe = (srv: ServerOut | undefined) =>
  !srv
    ? 'not in report'
    : srv.status === 'ok'
      ? `ok, ${srv.tools.length} tools, ${s(srv.durationMs)}`
      : `${srv.failure?.kind}: ${srv.failure?.message.slice(0, 60)}`;

console.log(`CLI ${cli}, --timeout ${timeoutMs} ms, cap ${s(CAP_MS)}`);
for (const mode of modes) {
  const beside = await run(mode, false);
  const bomb = beside.report?.servers.find((x) => x.name === 'bomb');
  const healthy = beside.report?.servers.find((x) => x.name === 'healthy');
  console.log(
    `${mode.padEnd(20)} wall ${s(beside.wall).padStart(8)} (${(beside.wall / timeoutMs).toFixed(2)} x timeout), exit ${beside.exit}; bomb: ${describe(bomb)}; healthy: ${describe(healthy)}`,
  );
  const sig = await run(mode, true);
  console.log(
    `${''.padEnd(20)} SIGTERM while processing: exit ${sig.exit} ${s(sig.afterSignal ?? 0)} after the signal, interrupted: ${sig.report?.options.interrupted ?? 'no report'}`,
  );
}
