/** The verdicts module (src/model/verdicts.ts) and the code-point cuts (src/model/cut.ts). */
import { describe, expect, it } from 'vitest';
import { describeHint, effectiveHints } from '../../src/classify/hints.js';
import { verdictOf } from '../../src/classify/verdict.js';
import { bounded, boundedTail } from '../../src/model/bounds.js';
import { clip, cutHead, cutTail } from '../../src/model/cut.js';
import { text } from '../../src/render/html/escape.js';
import { Verdict } from '../../src/model/schema.js';
import { safeText } from '../../src/render/terminal.js';
import {
  countVerdicts,
  headlineText,
  HINTS,
  isAnnotated,
  plural,
  retryFigures,
  share,
  VERDICT_ORDER,
  VERDICTS,
} from '../../src/model/verdicts.js';

/** A lone surrogate: half of a pair, alone. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('verdicts', () => {
  it("lists the schema's five verdicts, in the precedence order verdictOf applies them", () => {
    expect(VERDICT_ORDER).toEqual(Verdict.options);
    const effective = { readOnly: false, destructive: true, idempotent: true, openWorld: true };
    // Each verdict wins over every later one.
    expect(verdictOf({ ...effective, readOnly: true }, [{ name: 'k', path: '$.k', confidence: 'strong' }], true)).toBe(
      VERDICT_ORDER[0],
    );
    expect(verdictOf(effective, [{ name: 'k', path: '$.k', confidence: 'strong' }], true)).toBe(VERDICT_ORDER[1]);
    expect(verdictOf(effective, [{ name: 'k', path: '$.k', confidence: 'strong' }], false)).toBe(VERDICT_ORDER[2]);
    expect(verdictOf(effective, [], false)).toBe(VERDICT_ORDER[3]);
    expect(verdictOf({ ...effective, idempotent: false }, [], false)).toBe(VERDICT_ORDER[4]);
    for (const v of VERDICTS) expect(v.meaning.length).toBeGreaterThan(10);
  });

  it('applies the spec defaults to absent and non-boolean hints', () => {
    expect(effectiveHints(undefined)).toEqual({
      readOnly: false,
      destructive: true,
      idempotent: false,
      openWorld: true,
    });
    expect(effectiveHints({ readOnlyHint: 'true', destructiveHint: false })).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: true,
    });
    expect(Object.values(HINTS).map((h) => h.default)).toEqual([false, true, false, true]);
    expect(isAnnotated({ title: 'x' })).toBe(false);
    expect(isAnnotated({ openWorldHint: false })).toBe(true);
  });

  it('counts every verdict, zeros included, and the headline from the counts', () => {
    const c = countVerdicts([
      { verdict: 'keyed' },
      { verdict: 'unprotected' },
      { verdict: 'unprotected' },
      { verdict: 'read-only' },
    ]);
    expect(c).toEqual({ 'read-only': 1, 'protocol-keyed': 0, keyed: 1, idempotent: 0, unprotected: 2 });
    expect(retryFigures(c)).toEqual({ writes: 3, safe: 1 });
    expect(headlineText(c)).toBe('1 of 3 tools that are not read-only can be retried safely (33%)');
    expect(headlineText(countVerdicts([{ verdict: 'unprotected' }]))).toBe(
      '0 of 1 tool that is not read-only can be retried safely (0%)',
    );
    expect(headlineText(countVerdicts([{ verdict: 'read-only' }]))).toBe(
      'All 1 tool is read-only: it can be retried freely',
    );
    expect(headlineText(countVerdicts([]))).toBe('No tools were listed');
  });

  it('says 1 tool, 2 tools, and shares below 1% as <1%', () => {
    expect([plural(1, 'tool'), plural(2, 'tool'), plural(0, 'server'), plural(1_000, 'report')]).toEqual([
      '1 tool',
      '2 tools',
      '0 servers',
      '1,000 reports',
    ]);
    expect([share(1, 300), share(0, 3), share(1, 0)]).toEqual(['<1%', '0%', '-']);
  });
});

describe('cuts on code points', () => {
  const pairs = '😀'.repeat(10); // 20 UTF-16 units, 10 code points

  it('never splits a surrogate pair, at either end', () => {
    for (let n = 0; n <= 20; n++) {
      expect(cutHead(pairs, n), `head ${n}`).not.toMatch(LONE);
      expect(cutTail(pairs, n), `tail ${n}`).not.toMatch(LONE);
      expect(cutHead(pairs, n).length).toBe(n - (n % 2));
    }
    expect(clip(`a${pairs}`, 3)).toBe('a…');
  });

  it('in the report bounds: bounded and boundedTail keep whole characters and count what they dropped', () => {
    expect(bounded(`a${pairs}`, 2)).toBe('a… [20 more characters]');
    expect(bounded(pairs, 3)).toBe('😀… [18 more characters]');
    expect(boundedTail(`${pairs}a`, 2)).toBe('[20 earlier characters] …a');
    for (let n = 1; n < 20; n++) {
      expect(bounded(`x${pairs}`, n)).not.toMatch(LONE);
      expect(boundedTail(`${pairs}x`, n)).not.toMatch(LONE);
    }
  });

  it('on the terminal, in HTML and in hint descriptions', () => {
    for (let n = 2; n < 20; n++) {
      expect(safeText(`x${pairs}`, n)).not.toMatch(LONE);
      expect(text(`x${pairs}`, n)).not.toMatch(LONE);
    }
    expect(describeHint(`${'a'.repeat(39)}${pairs}`)).not.toMatch(LONE);
  });
});

describe('the verdict table (issue 17: each fact once)', () => {
  it('names a summary field for every verdict, each a count of the Summary schema, in rank order', async () => {
    const { Summary } = await import('../../src/model/schema.js');
    const { VERDICTS: all } = await import('../../src/model/verdicts.js');
    expect(all.map((v) => v.rank)).toEqual([0, 1, 2, 3, 4]);
    for (const v of all) expect(Object.keys(Summary.shape)).toContain(v.summaryField);
    expect(new Set(all.map((v) => v.summaryField)).size).toBe(all.length);
  });

  it('counts as the summary does, and protected is exactly the verdicts that protect', async () => {
    const { protectedCount, summaryCounts, verdictFields } = await import('../../src/model/verdicts.js');
    const c = { 'read-only': 1, 'protocol-keyed': 2, keyed: 3, idempotent: 4, unprotected: 5 } as const;
    expect(verdictFields(c)).toEqual({ readOnly: 1, protocolKeyed: 2, keyed: 3, idempotent: 4, unprotected: 5 });
    expect(
      summaryCounts({
        servers: 0,
        serversOk: 0,
        serversFailed: 0,
        tools: 15,
        notReadOnly: 14,
        annotated: 0,
        ...verdictFields(c),
      }),
    ).toEqual(c);
    expect(protectedCount(c)).toBe(5);
  });
});
