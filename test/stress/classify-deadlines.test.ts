/**
 * Classification of hostile input stays linear and bounded (issue 8, item 1). These inputs took
 * minutes before; the assertions are on outcomes (same words, the budget reported), the project's
 * 60 s timeout is only what makes the old code fail: seconds under load pass.
 */
import { describe, expect, it } from 'vitest';
import { classifyServer } from '../../src/classify/index.js';
import { findKeyArguments, nameWords, newStepBudget, SERVER_STEPS } from '../../src/classify/keys.js';

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

  it('reads only the head of a 100,000-capital name', () => {
    expect(nameWords(`get_${'A'.repeat(100_000)}b`)).toEqual(['get', 'a'.repeat(1_020)]);
  });
});

describe('schema walk budget', () => {
  it('follows a $ref chain of a few hundred hops to its key', () => {
    expect(findKeyArguments(keyAtEndOf(300)).map((k) => k.path)).toEqual(['$.idempotency_key']);
  });

  it('stops a 20,000-hop chain at the step budget and says so', () => {
    const budget = newStepBudget();
    expect(findKeyArguments(keyAtEndOf(20_000), budget, 'create_thing')).toEqual([]);
    expect(budget.cut).toEqual(['create_thing']);
    const server = classifyServer({ name: 's', rawTools: [{ name: 'create_thing', inputSchema: keyAtEndOf(20_000) }] });
    expect(server.findings.map((f) => f.rule)).toEqual(['schema-budget']);
  });

  it("shares one budget among a server's tools", () => {
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

  it('re-reads neither a wide map nor a long enum on every visit', () => {
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
