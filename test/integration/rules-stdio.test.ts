/**
 * The cases of the rule fixtures (test/rules/) that need a stdio server, on a real one:
 * servers/rules-replay.mjs writes the case's stdout lines and serves its tools, and `scan()`
 * starts it as any stdio target (test/unit/rules.test.ts runs every other case).
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/model/catalogue.js';
import type { Finding } from '../../src/model/schema.js';
import { scan } from '../../src/app/scan/scan.js';
import { FIXTURES } from '../fixtures/index.js';
import { checkCase, needsStdio, type RuleCase, type RuleCases, type ServerInput } from '../helpers/rule-tester.js';

const FIXTURES_DIR = new URL('../rules/', import.meta.url);
const cases = await Promise.all(
  CATALOGUE.map(async (r) => {
    const f = ((await import(new URL(`${r.id}.cases.ts`, FIXTURES_DIR).href)) as { default: RuleCases }).default;
    return [...f.valid, ...f.invalid].filter((c) => needsStdio(c.input)).map((c) => [r.id, c] as const);
  }),
).then((all) => all.flat());

/** The server's findings, then each tool's: the order findingsOf() gives. */
async function stdioFindingsOf(input: ServerInput): Promise<Finding[]> {
  if (input.pages || input.limits) throw new Error('a stdio case is one page within the default bounds');
  const CASE = JSON.stringify({ tools: input.tools ?? [], capabilities: input.capabilities, stdout: input.stdout });
  const report = await scan([
    {
      name: 'replay',
      source: 'rules-stdio',
      transport: 'stdio',
      command: process.execPath,
      args: [FIXTURES.rulesReplay],
      env: { CASE },
      trusted: input.trusted,
    },
  ]);
  const server = report.servers[0]!;
  expect(server.status, JSON.stringify(server.failure)).toBe('ok');
  return [...server.findings, ...server.tools.flatMap((t) => t.findings)];
}

describe('rule fixture cases on a stdio server', () => {
  it('there are some (stdout-noise has no other)', () => {
    expect(cases.map(([id]) => id)).toContain('stdout-noise');
  });
  it.each(cases.map(([id, c]) => [`${id}: ${c.name}`, id, c] as const))('%s', async (_, id, c: RuleCase) => {
    checkCase(id, c, await stdioFindingsOf(c.input));
  });
});
