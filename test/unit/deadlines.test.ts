/**
 * Classification of hostile input stays linear and bounded (issue 8, item 1). These inputs took
 * minutes before; the assertions are on outcomes (same words, the budget reported), the vitest
 * timeout is only what makes the old code fail.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { classifyServer } from '../../src/classify/index.js';
import { findKeyArguments, nameWords, newStepBudget, SERVER_STEPS } from '../../src/classify/keys.js';
import { watchSignals, type Interrupt } from '../../src/cli/signals.js';
import type { Report } from '../../src/model/schema.js';

/** The regex splitter nameWords replaced (quadratic on long capital runs): the oracle on short names. */
const regexWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // eslint-disable-next-line regexp/no-super-linear-move -- the old splitter, on short names only
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^a-z0-9]+/i)
    .filter(Boolean)
    .map((w) => w.toLowerCase());

const chain = (n: number, last: unknown) => {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  defs[`d${n}`] = last;
  return defs;
};
const keyAtEndOf = (hops: number) => ({
  type: 'object',
  properties: { idempotency_key: { $ref: '#/$defs/d0' } },
  $defs: chain(hops, { type: 'string' }),
});

describe('nameWords', () => {
  it('splits like the regex splitter it replaced', () => {
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const chars = [...'aAbBzZ09_- .xXé'];
    for (let n = 0; n < 20_000; n++) {
      const name = Array.from({ length: Math.floor(rnd() * 12) }, () => chars[Math.floor(rnd() * chars.length)]).join(
        '',
      );
      expect(nameWords(name), JSON.stringify(name)).toEqual(regexWords(name));
    }
    expect(nameWords('HTTPServerURLForX2Y')).toEqual(['http', 'server', 'url', 'for', 'x2', 'y']);
  });

  it('reads only the head of a 100,000-capital name', { timeout: 20_000 }, () => {
    expect(nameWords(`get_${'A'.repeat(100_000)}b`)).toEqual(['get', 'a'.repeat(1_020)]);
  });
});

describe('schema walk budget', () => {
  it('follows a $ref chain of a few hundred hops to its key', () => {
    expect(findKeyArguments(keyAtEndOf(300)).map((k) => k.path)).toEqual(['$.idempotency_key']);
  });

  it('stops a 20,000-hop chain at the step budget and says so', { timeout: 20_000 }, () => {
    const budget = newStepBudget();
    expect(findKeyArguments(keyAtEndOf(20_000), budget, 'create_thing')).toEqual([]);
    expect(budget.cut).toEqual(['create_thing']);
    const server = classifyServer({ name: 's', rawTools: [{ name: 'create_thing', inputSchema: keyAtEndOf(20_000) }] });
    expect(server.findings.map((f) => f.rule)).toEqual(['schema-budget']);
  });

  it("shares one budget among a server's tools", { timeout: 20_000 }, () => {
    const tools = Array.from({ length: 200 }, (_, i) => ({ name: `create_${i}`, inputSchema: keyAtEndOf(1_500) }));
    const server = classifyServer({ name: 's', rawTools: tools });
    const keyed = server.tools.filter((t) => t.verdict === 'keyed').length;
    // Each tool takes about 3,000 steps: the first tools are searched, the rest reported.
    expect(keyed).toBeGreaterThan(0);
    expect(keyed).toBeLessThan(200);
    expect(keyed).toBeLessThanOrEqual(Math.ceil(SERVER_STEPS / 3_000));
    expect(server.findings[0]).toMatchObject({
      rule: 'schema-budget',
      message: expect.stringContaining(`${200 - keyed} tool input schemas`),
    });
  });

  it('re-reads neither a wide map nor a long enum on every visit', { timeout: 20_000 }, () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++)
      defs[`n${i}`] = {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 400 }, (_, p) => [`p${p}`, { $ref: `#/$defs/n${i + 1}` }])),
      };
    defs.n30 = { enum: Array(100_000).fill(true) };
    const schema = {
      type: 'object',
      properties: { idempotency_key: { type: 'string' }, root: { $ref: '#/$defs/n0' } },
      $defs: defs,
    };
    expect(findKeyArguments(schema).map((k) => k.path)).toEqual(['$.idempotency_key']);
  });

  it('ignores a $ref too long to resolve on every hop', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: `#/${'x/'.repeat(5_000)}` }, idempotency_key: { type: 'string' } },
    };
    expect(findKeyArguments(schema).map((k) => k.path)).toEqual(['$.idempotency_key']);
  });
});

describe('signals', () => {
  let interrupt: Interrupt | undefined;
  afterEach(() => {
    interrupt?.dispose();
    process.exitCode = undefined;
  });

  it('a signal that arrives as the scan finishes still marks the report', async () => {
    interrupt = watchSignals();
    const report = { options: { concurrency: 1 }, servers: [{}, {}] } as unknown as Report;
    // Sent now, delivered by the event loop later: as when the thread was busy with a server.
    process.kill(process.pid, 'SIGTERM');
    const settled = await interrupt.settle(report, 2, 2);
    expect(interrupt.interrupted).toBe(true);
    expect(settled.options).toEqual({ concurrency: 1, interrupted: true, scanned: 2, targets: 2 });
  });

  it('leaves a report alone when no signal came', async () => {
    interrupt = watchSignals();
    const report = { options: {}, servers: [] } as unknown as Report;
    expect(await interrupt.settle(report, 0, 0)).toBe(report);
  });
});
