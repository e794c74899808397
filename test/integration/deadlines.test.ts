/**
 * Deadlines that nothing can outrun (issue 8, item 1): servers whose tools/list answer once held
 * the single thread for minutes are scanned beside a healthy server, which must stay ok, and a
 * SIGTERM sent while one is being processed must end the scan with exit 130 and the report.
 * Bounded outcomes only: the bombs finish before their --timeout, the healthy server is ok.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';
import { spawnLog, waitGone } from '../helpers/processes.js';

const BOMBS = ['caps-tool-name', 'caps-property-name', 'ref-chain', 'wide-dag', 'many-chains', 'deep-description'];
const TIMEOUT_MS = 20_000;

interface ServerOut {
  name: string;
  status: string;
  failure?: { kind: string; message: string };
  tools: { verdict: string }[];
  findings: { rule: string }[];
}

function targetsFile(dir: string, servers: object[]): string {
  const file = path.join(dir, 'targets.json');
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

const bomb = (mode: string, env: Record<string, string> = {}) => ({
  name: mode,
  command: process.execPath,
  args: [FIXTURES.hostileDeadline],
  env: { ...env, MODE: mode },
});

it(
  'every bomb completes before its --timeout, and the healthy server beside them is ok',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bombs-'));
    const file = targetsFile(dir, [
      ...BOMBS.map((mode) => bomb(mode)),
      { name: 'healthy', command: process.execPath, args: [FIXTURES.legacyStdio] },
    ]);
    const result = await idemscan([
      'scan',
      file,
      '--out',
      dir,
      '--timeout',
      String(TIMEOUT_MS),
      '--concurrency',
      String(BOMBS.length + 1),
      '-q',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as { servers: ServerOut[] };
    const byName = new Map(report.servers.map((s) => [s.name, s]));
    expect(byName.get('healthy')).toMatchObject({
      status: 'ok',
      tools: expect.toSatisfy((t: unknown[]) => t.length === 8),
    });
    for (const mode of BOMBS) {
      const s = byName.get(mode)!;
      // Ok, or a clean failure: never the deadline, which is what a blocked thread produced.
      expect(s.failure?.kind, `${mode}: ${s.failure?.message}`).not.toBe('timeout');
    }
    // Cut short and said so, rather than searched for minutes.
    for (const mode of ['ref-chain', 'many-chains'])
      expect(byName.get(mode)!.findings.map((f) => f.rule)).toContain('schema-budget');
  },
);

it(
  'SIGTERM while a bomb is being processed ends the scan with exit 130 and the report',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bomb-int-'));
    const log = spawnLog();
    const env = { IDEMSCAN_FIXTURE_LOG: log.file };
    const file = targetsFile(dir, [
      bomb('caps-tool-name', env),
      // Keeps the scan running, so the signal is the only way it ends early.
      { name: 'hang', command: process.execPath, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } },
    ]);
    const child = execa(
      process.execPath,
      [CLI, 'scan', file, '--out', dir, '--concurrency', '2', '--timeout', '60000'],
      { reject: false, forceKillAfterDelay: false },
    );
    // The marker: the bomb has written its tools/list answer, so idemscan is reading or classifying it.
    const deadline = Date.now() + 30_000;
    const listed = () => log.entries().some((e) => e.name === 'deadline-caps-tool-name-listed');
    while (!listed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(listed()).toBe(true);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(130);
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(report.options).toMatchObject({ interrupted: true, targets: 2 });
    expect(report.servers.map((s: ServerOut) => s.name)).not.toContain('hang');
    expect(await waitGone(log.entries().map((e) => e.pid))).toEqual([]);
  },
);
