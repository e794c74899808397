/** A report from a real scan of fixture servers, including the injection fixture (xss.mjs). */
import { scan } from '../../src/app/scan/scan.js';
import type { Report } from '../../src/model/schema.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';

const node = (
  name: string,
  file: string,
  env?: Record<string, string>,
  extra: Partial<TargetInput> = {},
): TargetInput => ({
  name,
  source: `test/fixtures/servers#${name}`,
  transport: 'stdio',
  command: process.execPath,
  args: [file],
  env,
  ...extra,
});

export const XSS_SERVER = 'xss <b onmouseover="window.__pwned=9">server</b>';

const FIXTURE_TARGETS: TargetInput[] = [
  node('payments-modern', FIXTURES.modernStdio),
  node('payments-legacy', FIXTURES.legacyStdio),
  node('charges', FIXTURES.raw, { MODE: 'idempotency-cap' }),
  node('malformed', FIXTURES.raw, { MODE: 'malformed-tool' }),
  node('huge-description', FIXTURES.raw, { MODE: 'huge-description' }),
  node(XSS_SERVER, FIXTURES.xss),
  node('xss-crash', FIXTURES.xss, { MODE: 'crash' }),
  node('crash', FIXTURES.raw, { MODE: 'crash' }),
  node('hang', FIXTURES.raw, { MODE: 'hang' }, { timeoutMs: 1_500 }),
];

export function scanFixtures(): Promise<Report> {
  return scan(FIXTURE_TARGETS, { concurrency: 4, probeTimeoutMs: 500, timeoutMs: 8_000, install: false });
}
