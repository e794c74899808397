/** A server silent before initialize pays the probe timeout once; later scans remember it. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { scan } from '../../src/scan.js';
import type { Target } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';

it('remembers silent legacy servers across scans', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-memo-'));
  const silent: Target = { name: 'silent', source: 'test', transport: 'stdio', command: process.execPath, args: [FIXTURES.raw], env: { MODE: 'silent-before-init' } };
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
  const modern: Target = { name: 'modern', source: 'test', transport: 'stdio', command: process.execPath, args: [FIXTURES.modernStdio] };
  await scan([modern], { cacheDir });
  expect((await scan([modern], { cacheDir })).servers[0]!.protocol?.era).toBe('modern');
});
