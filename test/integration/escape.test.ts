/**
 * Children that leave the server's process group (setsid, detached, their own group, a double
 * fork) end with the scan, with and without --sandbox, and when idemscan itself is SIGKILLed.
 */
import { randomUUID } from 'node:crypto';
import { execa } from 'execa';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';
import { spawnLog, waitGone } from '../helpers/processes.js';
import { killTagged, tagged } from '../helpers/tagged.js';

const MODES = ['setsid', 'detached', 'pgroup', 'daemon'] as const;
const tags: string[] = [];
afterAll(() => tags.forEach(killTagged));

function escaping(mode: string, tag: string, log?: string): TargetInput {
  tags.push(tag);
  return {
    name: mode,
    source: 'test',
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURES.hostileEscape],
    env: { MODE: mode, ESCAPE_TAG: tag, ...(log ? { IDEMSCAN_FIXTURE_LOG: log } : {}) },
  };
}

describe.each([
  { sandbox: false, name: 'without --sandbox' },
  { sandbox: true, name: 'with --sandbox' },
])('escaped children $name', ({ sandbox }) => {
  it.skipIf(sandbox && !sandboxPrefix())('are gone when the scan ends', { timeout: 60_000 }, async () => {
    const tag = randomUUID();
    const log = spawnLog();
    const report = await scan(
      MODES.map((m) => escaping(m, `${tag}-${m}`, log.file)),
      { timeoutMs: 20_000, sandbox },
    );
    for (const s of report.servers) {
      expect(s.status, JSON.stringify(s.failure)).toBe('ok');
      // The fixture answers only once its child runs: each escape really happened.
      expect(
        s.tools.map((t) => t.name),
        log.text(),
      ).toEqual([`escaped_${s.name}`]);
      expect(s.target.sandbox).toBe(sandbox ? (sandboxPrefix()![0] === 'bwrap' ? 'bubblewrap' : 'netns') : 'none');
    }
    // Without a sandbox the children could also log (pids of their own namespace: not used here).
    if (!sandbox)
      expect(
        log
          .entries()
          .map((e) => e.name)
          .filter((n) => n.startsWith('escape-'))
          .sort(),
        log.text(),
      ).toEqual(MODES.map((m) => `escape-${m}`).sort());
    const left = await waitGone(MODES.flatMap((m) => tagged(`${tag}-${m}`)));
    expect(left, 'processes left after the scan').toEqual([]);
  });

  it.skipIf(sandbox && !sandboxPrefix())(
    'are gone when idemscan itself is killed with SIGKILL',
    { timeout: 60_000 },
    async () => {
      const tag = randomUUID();
      const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-escape-'));
      const file = path.join(dir, 'targets.json');
      // The escaping server, and one that never answers, so that the scan is still running.
      const log = spawnLog();
      writeFileSync(
        file,
        JSON.stringify({
          servers: [
            {
              name: 'all',
              command: process.execPath,
              args: [FIXTURES.hostileEscape],
              // Held open: once it answered, idemscan would close it and its namespace would take the
              // children with it before this test saw them (a race the 100 ms poll lost under load).
              env: { MODE: 'all', ESCAPE_TAG: tag, IDEMSCAN_FIXTURE_LOG: log.file, HOLD_LIST: '1' },
            },
            { name: 'hang', command: process.execPath, args: [FIXTURES.raw], env: { MODE: 'hang', ESCAPE_TAG: tag } },
          ],
        }),
      );
      tags.push(tag);
      const run = execa(
        process.execPath,
        [CLI, 'scan', file, '--timeout', '60000', '--out', dir, ...(sandbox ? ['--sandbox'] : [])],
        { reject: false },
      );
      // Kill idemscan once the four escaped children run.
      const children = () => tagged(tag).filter((pid) => cmdline(pid).includes('--child'));
      const deadline = Date.now() + 30_000;
      while (children().length < MODES.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(children(), log.text()).toHaveLength(MODES.length);
      const running = tagged(tag);
      run.kill('SIGKILL');
      await run;
      expect(await waitGone(running, 10_000), 'processes left after idemscan was killed').toEqual([]);
      expect(tagged(tag)).toEqual([]);
    },
  );
});

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
