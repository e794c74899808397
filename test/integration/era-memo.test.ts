/** A server silent before initialize pays the probe timeout once; later scans remember it. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';

it('remembers silent legacy servers across scans', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-memo-'));
  const silent: TargetInput = {
    name: 'silent',
    source: 'test',
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURES.raw],
    env: { MODE: 'silent-before-init' },
  };
  const first = (await scan([silent], { cacheDir, probeTimeoutMs: 1_500 })).servers[0]!;
  expect(first.protocol?.negotiation).toMatch(/no answer to server\/discover within 1500 ms/);
  expect(first.durationMs).toBeGreaterThanOrEqual(1_500);

  const second = (await scan([silent], { cacheDir, probeTimeoutMs: 1_500 })).servers[0]!;
  expect(second.status).toBe('ok');
  expect(second.protocol).toMatchObject({ era: 'legacy' });
  expect(second.protocol?.negotiation).toMatch(/remembered/);
  expect(second.durationMs).toBeLessThan(1_500);
  expect(second.tools).toHaveLength(3);

  // A modern server is never remembered as legacy.
  const modern: TargetInput = {
    name: 'modern',
    source: 'test',
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURES.modernStdio],
  };
  await scan([modern], { cacheDir });
  expect((await scan([modern], { cacheDir })).servers[0]!.protocol?.era).toBe('modern');
});

it('starts a server that exits on the server/discover probe once more, with initialize only, and remembers it', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-memo-'));
  const strict: TargetInput = {
    name: 'strict',
    source: 'test',
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURES.strictLifecycle],
  };
  const first = (await scan([strict], { cacheDir })).servers[0]!;
  expect(first.status, JSON.stringify(first.failure)).toBe('ok');
  expect(first.protocol).toMatchObject({ era: 'legacy', version: '2025-06-18' });
  expect(first.protocol?.negotiation).toMatch(/exited on server\/discover/);
  expect(first.tools.map((t) => t.name)).toEqual(['run_shell']);

  const second = (await scan([strict], { cacheDir })).servers[0]!;
  expect(second.status).toBe('ok');
  expect(second.protocol?.negotiation).toMatch(/remembered/);

  // A server that exits whatever it is sent still fails, after one more try, with its stderr.
  const crash: TargetInput = {
    name: 'crash',
    source: 'test',
    transport: 'stdio',
    command: process.execPath,
    args: ['-e', 'console.error("no config"); process.exit(3)'],
  };
  const failed = (await scan([crash], { cacheDir })).servers[0]!;
  expect(failed.status).toBe('failed');
  expect(failed.failure).toMatchObject({ kind: 'exited' });
  expect(failed.failure?.stderr).toMatch(/no config/);
});
