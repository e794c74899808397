/** The probe's pure parts: key placement, the outcome from the calls, the plan, and retryDecision on the scanner's verdicts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyTool } from '../../src/classify/index.js';
import { parseKeyPath, placeKey } from '../../src/classify/key-place.js';
import { judge } from '../../src/probe/outcome.js';
import type { SentCall } from '../../src/model/probe-schema.js';
import { retryDecision, retryDecisionFromReport, withRetryKey } from '../../src/classify/retry.js';
import { VERDICTS } from '../../src/model/verdicts.js';
import { parsePlan, planExperiments, plannedCalls, type PlannedTool } from '../../src/model/probe-plan.js';
import { prepareProbe } from '../../src/probe/prepare.js';
import { planSecrets } from '../../src/probe/plan-secrets.js';
import { entryOf } from '../../src/census/behaviour/probe-library.js';

describe('placeKey', () => {
  it('puts the key at nested, bracketed and wildcard paths without changing the input', () => {
    const args = { options: { a: 1 }, items: [{ x: 1 }, { x: 2 }] };
    expect(placeKey(args, '$.options.clientToken', 'K')).toEqual({
      args: { options: { a: 1, clientToken: 'K' }, items: args.items },
      placed: true,
    });
    expect(placeKey({}, '$["odd.name"]', 'K').args).toEqual({ 'odd.name': 'K' });
    expect(placeKey(args, '$.items[*].key', 'K').args.items).toEqual([
      { x: 1, key: 'K' },
      { x: 2, key: 'K' },
    ]);
    expect(placeKey({ items: [] }, '$.items[*].key', 'K').placed).toBe(false);
    expect(args.options).toEqual({ a: 1 });
  });

  it('never writes through __proto__, and refuses paths it does not write', () => {
    const out = placeKey({}, '$["__proto__"]', 'K').args;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).K).toBeUndefined();
    expect(parseKeyPath('a.b')).toBeUndefined();
    expect(parseKeyPath('$..x')).toBeUndefined();
    expect(placeKey({ a: 'text' }, '$.a.b', 'K').placed).toBe(false);
  });
});

const call = (step: string, compared: string, status: SentCall['status'] = 'ok'): SentCall => ({
  step,
  tool: 't',
  ms: 1,
  status,
  compared,
});
const steps = (before: string, afterCall: string, afterReissue: string) => [
  call('observe-before', before),
  call('call', 'r1'),
  call('observe-after-call', afterCall),
  call('reissue', 'r2'),
  call('observe-after-reissue', afterReissue),
];

describe('judge', () => {
  it('reads the observer: changed once is retry-safe, twice repeated, never inconclusive', () => {
    expect(judge(steps('0', '1', '1'), true).outcome).toBe('retry-safe');
    expect(judge(steps('0', '1', '2'), true).outcome).toBe('repeated-effect');
    expect(judge(steps('0', '0', '0'), true).outcome).toBe('inconclusive');
  });
  it('without an observer it cannot tell; a failed call is failed, and says which', () => {
    expect(judge([call('call', 'a'), call('reissue', 'a')], false).outcome).toBe('inconclusive');
    const failed = judge(
      [call('observe-before', '0'), { ...call('call', 'x', 'tool-error'), why: 'answered isError: true' }],
      true,
    );
    expect(failed).toMatchObject({ outcome: 'failed', reason: 'call (t) answered isError: true' });
  });
  it("an observer's error answer is an observation: a read that fails until the effect shows it", () => {
    const erroring = (step: string, text: string): SentCall => ({ ...call(step, text, 'tool-error'), why: 'isError' });
    const created = [erroring('observe-before', 'ENOENT'), ...steps('', 'v1', 'v1').slice(1)];
    expect(judge(created, true).outcome).toBe('retry-safe');
    const silent: SentCall = { ...call('observe-before', ''), status: 'no-answer', why: 'no answer' };
    expect(judge([silent], true)).toMatchObject({ outcome: 'failed', reason: 'observe-before (t) no answer' });
  });
  it('a conflict call that errors is rejected, one that succeeds accepted', () => {
    expect(judge([...steps('0', '1', '1'), call('conflict', 'e', 'error')], true).conflict).toBe('rejected');
    expect(judge([...steps('0', '1', '1'), call('conflict', 'ok')], true).conflict).toBe('accepted');
  });
});

describe('the plan', () => {
  it('names the field that is wrong', () => {
    expect(() => parsePlan({ tools: { a: { observe: { tool: '' } } } })).toThrow('tools.a.observe.tool');
    expect(() => parsePlan({ tools: {} })).toThrow('the plan names no tool');
    expect(() => parsePlan({ tool: {} })).toThrow('unknown field "tool"');
  });
  it("takes a tool's own bound on each of its calls, a whole number of ms", () => {
    expect((parsePlan({ tools: { a: { timeoutMs: 1_000 } } }).tools.a as PlannedTool).timeoutMs).toBe(1_000);
    for (const timeoutMs of [0, 1.5, '1000'])
      expect(() => parsePlan({ tools: { a: { timeoutMs } } })).toThrow('tools.a.timeoutMs');
  });
  it('takes secret-named argument values for redaction, in cases and set-up steps too', () => {
    const plan = parsePlan({ tools: { a: { arguments: { api_key: 'sk-12345678', amount: 'ten' } } } });
    expect(planSecrets(plan)).toEqual(['sk-12345678']);
    const shaped = parsePlan({
      setup: [{ tool: 's', arguments: { token: 'tok-setup-1234' } }],
      tools: { a: [{ arguments: {} }, { arguments: { password: 'pw-case-2-abcd' } }] },
    });
    expect(planSecrets(shaped).sort()).toEqual(['pw-case-2-abcd', 'tok-setup-1234']);
  });
  it('keeps test data that only looks random, and a config key named `key`', () => {
    const plan = parsePlan({
      tools: {
        set_config_value: { arguments: { key: 'allowedDirectories', value: ['/scratch'] } },
        write: { arguments: { range: 'Sheet1!B2:B2', rows: '[["Name","Qty"],["pen",1]]', apiKey: 'k-1234' } },
      },
    });
    expect(planSecrets(plan)).toEqual(['k-1234']);
  });
  it('cases, a default observer and set-up steps; a wrong one names its field', () => {
    const plan = parsePlan({
      setup: [{ tool: 'seed' }],
      observe: { tool: 'count' },
      tools: {
        b: [{ arguments: { x: 1 } }, { arguments: { x: 2 }, observe: { tool: 'other' } }],
        a: { arguments: {} },
      },
    });
    expect(planExperiments(plan).map((e) => [e.name, e.case, e.planned.observe?.tool])).toEqual([
      ['b', 1, 'count'],
      ['b', 2, 'other'],
      ['a', undefined, 'count'],
    ]);
    expect(plan.setup).toEqual([{ tool: 'seed', arguments: {} }]);
    expect(plannedCalls(plan)).toEqual({ tools: ['b', 'a'], observers: ['count', 'other'], setup: ['seed'] });
    expect(() => parsePlan({ tools: { a: [] } })).toThrow('tools.a: a list of cases needs one case');
    expect(() => parsePlan({ tools: { a: [{ argumnets: {} }] } })).toThrow('tools.a[0]: unknown field "argumnets"');
    expect(() => parsePlan({ tools: { a: 5 } })).toThrow(
      'tools.a: expected a planned tool (an object) or a list of cases',
    );
    expect(() => parsePlan({ setup: [{ tool: 'x', args: {} }], tools: { a: {} } })).toThrow(
      'setup[0]: unknown field "args"',
    );
    expect(() => parsePlan({ observe: {}, tools: { a: {} } })).toThrow('observe.tool');
  });
});

describe('docs/PROBE.md', () => {
  it('every JSON plan it shows is a valid plan, and its plan-library file a valid one', () => {
    const text = readFileSync(new URL('../../docs/PROBE.md', import.meta.url), 'utf8');
    const blocks = [...text.matchAll(/```json\n([^`]*)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
    const [library, plans] = [blocks.filter((b) => 'server' in b), blocks.filter((b) => !('server' in b))];
    expect(plans.length).toBeGreaterThanOrEqual(2);
    for (const b of plans) expect(() => parsePlan(b, 'docs/PROBE.md')).not.toThrow();
    expect(library).toHaveLength(1);
    expect(entryOf(library[0], 'probes/memory.json').expect).toHaveProperty('create_relations');
  });
});

describe('prepareProbe', () => {
  const listed = [
    { name: 'write', inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } } },
    { name: 'count', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  ];
  it('one experiment per case, each with its own key; an old plan keeps its one experiment without a case', () => {
    let n = 0;
    const plan = parsePlan({
      observe: { tool: 'count' },
      tools: { write: [{ arguments: { a: 1 } }, { arguments: { a: 2 } }] },
    });
    const prepared = prepareProbe(listed, undefined, plan, () => `k${++n}`);
    expect(prepared.experiments.map((e) => [e.case, e.arguments, e.observe?.tool])).toEqual([
      [1, { a: 1, idempotency_key: 'k1' }, 'count'],
      [2, { a: 2, idempotency_key: 'k2' }, 'count'],
    ]);
    const old = prepareProbe(listed, undefined, parsePlan({ tools: { write: {} } }), () => 'k');
    expect(old.experiments).toHaveLength(1);
    expect('case' in old.experiments[0]!).toBe(false);
  });
  it('a set-up, observing or planned tool the server does not list: nothing prepared, its field named', () => {
    const plan = parsePlan({ setup: [{ tool: 'seed' }], tools: { write: [{ observe: { tool: 'look' } }] } });
    expect(prepareProbe(listed, undefined, plan)).toMatchObject({
      experiments: [],
      setup: [],
      missing: ['seed', 'look'],
      missingFields: ['setup[0].tool', 'tools.write[0].observe.tool'],
    });
  });
});

const tools = {
  read: { name: 'read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  keyed: {
    name: 'keyed',
    inputSchema: {
      type: 'object',
      properties: { opts: { type: 'object', properties: { clientToken: { type: 'string' } } } },
    },
  },
  hinted: { name: 'hinted', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
  bare: { name: 'bare', inputSchema: { type: 'object' } },
};

describe('retryDecision', () => {
  it('one decision per verdict, from the same classification as the scan', () => {
    expect(retryDecision(tools.read)).toMatchObject({ decision: 'safe', verdict: 'read-only' });
    expect(retryDecision(tools.keyed)).toMatchObject({
      decision: 'with-key',
      key: { in: 'arguments', path: '$.opts.clientToken', name: 'clientToken' },
    });
    expect(retryDecision(tools.bare, { capabilities: { tools: { idempotency: {} } } })).toMatchObject({
      decision: 'with-key',
      verdict: 'protocol-keyed',
      key: { in: 'params' },
    });
    expect(retryDecision(tools.hinted)).toMatchObject({ decision: 'if-trusted' });
    expect(retryDecision(tools.hinted, { trusted: true })).toMatchObject({ decision: 'safe' });
    expect(retryDecision(tools.bare)).toMatchObject({ decision: 'never', verdict: 'unprotected' });
  });

  it('a report edited to keyed without its strong key is not re-issued (there is no key to send)', () => {
    const edited = {
      verdict: 'keyed' as const,
      keyArguments: [{ name: 'request_id', path: '$.request_id', confidence: 'weak' }],
    };
    expect(retryDecisionFromReport(edited)).toMatchObject({
      decision: 'never',
      verdict: 'keyed',
      reason: expect.stringContaining('no strong key'),
    });
  });

  it('tools/list entries and report tools alike, from the plain-data entry point', async () => {
    const entry = await import('../../src/retry.js');
    expect(entry.retryDecision(tools.keyed)).toEqual(retryDecision(tools.keyed));
    const reported = classifyTool(tools.keyed, false);
    expect(entry.retryDecisionFromReport(reported)).toEqual(retryDecisionFromReport(reported));
    expect(entry.VERDICT_IDS).toEqual(VERDICTS.map((v) => v.id));
  });

  it('re-issues on its own exactly where the verdict table says a retry is safe', () => {
    for (const raw of Object.values(tools)) {
      const reported = classifyTool(raw, false);
      const allowed = ['safe', 'with-key'].includes(retryDecisionFromReport(reported).decision);
      expect(allowed, raw.name).toBe(VERDICTS.find((v) => v.id === reported.verdict)!.retrySafe);
      expect(retryDecisionFromReport(reported)).toEqual(retryDecision(raw));
    }
  });

  it('withRetryKey puts the key where the decision says, and nowhere for the others', () => {
    const p = { name: 'keyed', arguments: { opts: {} } };
    expect(withRetryKey(p, retryDecision(tools.keyed), 'K')).toEqual({
      name: 'keyed',
      arguments: { opts: { clientToken: 'K' } },
    });
    expect(
      withRetryKey(
        { name: 'bare' },
        retryDecision(tools.bare, { capabilities: { tools: { idempotency: true } } }),
        'K',
      ),
    ).toEqual({ name: 'bare', idempotencyKey: 'K' });
    expect(withRetryKey({ name: 'bare' }, retryDecision(tools.bare), 'K')).toEqual({ name: 'bare' });
  });
});
