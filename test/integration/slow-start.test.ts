/** A timeout says whether the server was still starting (more --timeout helps) or answered and then stalled. */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';

const PROBE = fileURLToPath(new URL('../fixtures/packages/npx-server/server.mjs', import.meta.url));
const node = (name: string, file: string, env: Record<string, string>): TargetInput => ({
  name,
  source: 'test',
  transport: 'stdio',
  command: process.execPath,
  args: [file],
  env,
});

it('a server alive but silent until the deadline was still starting; one that answered and stalled was not', async () => {
  const report = await scan(
    [
      node('silent', FIXTURES.raw, { MODE: 'hang' }),
      node('slow', PROBE, { SLOW_START_MS: '20000' }),
      node('stalled', PROBE, { STALL_LIST: '1' }),
    ],
    { timeoutMs: 1_500, probeTimeoutMs: 300, concurrency: 3 },
  );
  const failure = (name: string) => report.servers.find((s) => s.name === name)!.failure;
  for (const name of ['silent', 'slow']) {
    expect(failure(name)).toMatchObject({
      kind: 'timeout',
      message: 'no answer within 1.5 s; it was still starting: try --timeout 60000',
    });
  }
  // It answered initialize: not a slow start, and more time is no cure.
  expect(failure('stalled')!.kind).toBe('timeout');
  // Which of the two clocks fires first (tools/list's own or the whole --timeout) depends on the load.
  expect(failure('stalled')!.message).toMatch(
    /^no answer to tools\/list within \d+ ms$|^no complete answer within 1500 ms \(--timeout\)$/,
  );
  expect(failure('stalled')!.message).not.toMatch(/still starting/);
});
