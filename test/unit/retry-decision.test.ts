/**
 * retryDecision() on what a server or an edited report may write: a `tools/list` entry is judged
 * from its schema and annotations only, and a report's verdict is read only through
 * retryDecisionFromReport(), where a verdict that is not one of the five gives `never`.
 */
import { describe, expect, it } from 'vitest';
import { classifyTool } from '../../src/classify/index.js';
import { retryDecision, retryDecisionFromReport, withRetryKey, type ReportedTool } from '../../src/classify/retry.js';

const destructive = {
  name: 'delete_everything',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  annotations: { destructiveHint: true },
};

/** A saved report's tool as JSON.parse gives it: `__proto__` is an own key, as in a file. */
const saved = (json: string) => JSON.parse(json) as ReportedTool;

describe('a tools/list entry: its schema and annotations, nothing else it says', () => {
  it('the destructive tool is never re-issued', () => {
    expect(retryDecision(destructive)).toMatchObject({ decision: 'never', verdict: 'unprotected' });
  });

  it.each([
    ['verdict read-only, no keys', { verdict: 'read-only', keyArguments: [] }],
    ['verdict keyed, a key name the schema lacks', { verdict: 'keyed', keyArguments: ['x'] }],
    [
      'verdict keyed, a strong key the schema lacks',
      { verdict: 'keyed', keyArguments: [{ name: 'x', path: '$.x', confidence: 'strong' }] },
    ],
    ['verdict protocol-keyed', { verdict: 'protocol-keyed', keyArguments: [] }],
    ['verdict idempotent', { verdict: 'idempotent', keyArguments: [] }],
  ])('%s, written by the server into its own entry: the same never', (_, forged) => {
    const entry = { ...destructive, ...forged };
    expect(retryDecision(entry)).toEqual(retryDecision(destructive));
    expect(retryDecision(entry, { trusted: true })).toMatchObject({ decision: 'never', verdict: 'unprotected' });
    expect(withRetryKey({ name: entry.name, arguments: {} }, retryDecision(entry), 'K')).toEqual({
      name: entry.name,
      arguments: {},
    });
  });

  it("a report's tool passed as an entry is judged by its annotations, not its verdict", () => {
    const keyed = classifyTool(
      { name: 'create', inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } } },
      false,
    );
    expect(keyed.verdict).toBe('keyed');
    // No inputSchema in a report: no key argument to find, so no key to send.
    expect(retryDecision(keyed)).toMatchObject({ decision: 'never', verdict: 'unprotected' });
    expect(retryDecisionFromReport(keyed)).toMatchObject({ decision: 'with-key', verdict: 'keyed' });
  });

  it('something that is not an object is an entry that declares nothing', () => {
    expect(retryDecision(null as unknown as Record<string, unknown>)).toMatchObject({ decision: 'never' });
  });
});

describe("a saved report's tool, marked as one", () => {
  it.each([
    ['"toString"', '"toString"'],
    ['"constructor"', '"constructor"'],
    ['"hasOwnProperty"', '"hasOwnProperty"'],
    ['"__proto__"', '"__proto__"'],
    ['"valueOf"', '"valueOf"'],
    ['"bogus"', '"bogus"'],
    ['42', '42'],
    ['null', 'null'],
    ['{"x":1}', 'an object'],
  ])('verdict %s: never, with a reason that names it', (verdict, named) => {
    const tool = saved(`{"verdict": ${verdict}, "keyArguments": [], "__proto__": {"verdict": "read-only"}}`);
    const decision = retryDecisionFromReport(tool, { trusted: true });
    expect(decision).toEqual({
      decision: 'never',
      verdict: 'unprotected',
      reason: `the report's verdict ${named} is not one idemscan knows: a re-issue may repeat the effect`,
    });
  });

  it('a verdict without one: never, naming undefined', () => {
    expect(retryDecisionFromReport(saved('{"keyArguments": []}'))).toMatchObject({
      decision: 'never',
      reason: expect.stringContaining('verdict undefined'),
    });
    expect(retryDecisionFromReport(null as unknown as ReportedTool)).toMatchObject({ decision: 'never' });
  });

  it("the reason quotes an unknown verdict short and in printable ASCII (it reaches the client's terminal)", () => {
    const tool = saved(JSON.stringify({ verdict: `\u001b[2J\u202e\u009b${'x'.repeat(10_000)}`, keyArguments: [] }));
    const { reason } = retryDecisionFromReport(tool);
    expect(reason).toMatch(/^[\x20-\x7e]+$/);
    expect(reason).toContain('"\\u001b[2J\\u202e\\u009bxxx');
    expect(reason.length).toBeLessThan(200);
  });

  it('keyed: a key only from a strong key argument at a path a key can be put', () => {
    const decide = (keyArguments: string) =>
      retryDecisionFromReport(saved(`{"verdict":"keyed","keyArguments":${keyArguments}}`));
    expect(decide('[{"name":"k","path":"$.k","confidence":"strong"}]')).toMatchObject({
      decision: 'with-key',
      key: { in: 'arguments', path: '$.k', name: 'k' },
    });
    for (const bad of [
      '[{"name":"k","path":"k","confidence":"strong"}]',
      '[{"name":"k","path":"$","confidence":"strong"}]',
      '[{"name":"k","path":7,"confidence":"strong"}]',
      '[{"name":"k","path":"$.k","confidence":"weak"}]',
      '["k"]',
      '"k"',
      'null',
    ])
      expect(decide(bad), bad).toMatchObject({
        decision: 'never',
        verdict: 'keyed',
        reason: expect.stringContaining('no strong key'),
      });
  });

  it('the five verdicts as the report says them', () => {
    const decide = (verdict: string, trusted = false) =>
      retryDecisionFromReport(saved(`{"verdict":"${verdict}","keyArguments":[]}`), { trusted }).decision;
    expect(decide('read-only')).toBe('safe');
    expect(decide('protocol-keyed')).toBe('with-key');
    expect(decide('idempotent')).toBe('if-trusted');
    expect(decide('idempotent', true)).toBe('safe');
    expect(decide('unprotected', true)).toBe('never');
  });
});

describe('a call that never left (sent: false)', () => {
  it('is safe to send whatever the tool, and a keyed tool keeps its key', () => {
    const unsent = retryDecision(destructive, { sent: false });
    expect(unsent).toMatchObject({ decision: 'safe', verdict: 'unprotected' });
    expect(unsent.reason).toContain('never sent');
    expect(retryDecision(destructive).decision).toBe('never');
    expect(retryDecision(destructive, { sent: true }).decision).toBe('never');
    const keyed = {
      name: 'create_order',
      inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } },
    };
    expect(retryDecision(keyed, { sent: false }).decision).toBe('with-key');
    const fromReport = retryDecisionFromReport(saved('{"verdict": "unprotected", "keyArguments": []}'), {
      sent: false,
    });
    expect(fromReport.decision).toBe('safe');
  });
});
