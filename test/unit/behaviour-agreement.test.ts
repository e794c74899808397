import { describe, expect, it } from 'vitest';
import { agreementOf, declaredHints } from '../../src/census/behaviour/behaviour-agreement.js';
import type { DeclaredHints } from '../../src/census/behaviour/behaviour.js';

const hints = (h: Partial<DeclaredHints>): DeclaredHints => ({
  readOnlyHint: null,
  destructiveHint: null,
  idempotentHint: null,
  openWorldHint: null,
  ...h,
});

describe('agreementOf', () => {
  it('a tool that declares not idempotent but did not repeat its effect understates', () => {
    expect(agreementOf(hints({ idempotentHint: false }), 'unprotected', 'retry-safe')).toEqual({
      agreement: 'understates',
      words: 'declares not idempotent, does not repeat its effect',
    });
  });

  it('a tool that declares idempotent and repeated its effect overstates', () => {
    expect(agreementOf(hints({ idempotentHint: true }), 'idempotent', 'repeated-effect')).toEqual({
      agreement: 'overstates',
      words: 'declares idempotent, repeats its effect',
    });
  });

  it('a keyed tool that repeated its effect overstates, one that did not agrees', () => {
    expect(agreementOf(hints({}), 'keyed', 'repeated-effect').agreement).toBe('overstates');
    expect(agreementOf(hints({}), 'protocol-keyed', 'retry-safe').agreement).toBe('agrees');
  });

  it('no hint and a repeated effect agree: the default says not idempotent', () => {
    const got = agreementOf(hints({}), 'unprotected', 'repeated-effect');
    expect(got.agreement).toBe('agrees');
    expect(got.words).toBe('declares no idempotentHint (so not idempotent), repeats its effect');
  });

  it('a refused re-issue after one effect keeps an idempotent claim and betters a non-idempotent one', () => {
    expect(agreementOf(hints({ idempotentHint: true }), 'idempotent', 'reissue-refused').agreement).toBe('agrees');
    expect(agreementOf(hints({ idempotentHint: false }), 'unprotected', 'reissue-refused').agreement).toBe(
      'understates',
    );
  });

  it('a read-only tool whose call changed the observer overstates, whatever the re-issue did', () => {
    for (const outcome of ['retry-safe', 'reissue-refused', 'repeated-effect'] as const) {
      const got = agreementOf(hints({ readOnlyHint: true, idempotentHint: true }), 'read-only', outcome);
      expect(got.agreement).toBe('overstates');
      expect(got.words.startsWith('declares read-only, changes state and ')).toBe(true);
    }
  });

  it('an outcome that tells nothing is unknown, and says which', () => {
    for (const outcome of ['inconclusive', 'failed', 'not-probed'] as const)
      expect(agreementOf(hints({ idempotentHint: true }), 'idempotent', outcome)).toEqual({
        agreement: 'unknown',
        words: `declares idempotent; the probe could not tell (${outcome})`,
      });
  });
});

describe('declaredHints', () => {
  it('keeps booleans and reads anything else as absent', () => {
    expect(declaredHints({ readOnlyHint: false, idempotentHint: 'true', destructiveHint: true })).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: null,
      openWorldHint: null,
    });
    expect(declaredHints(undefined).idempotentHint).toBeNull();
  });
});
