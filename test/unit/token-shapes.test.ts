/**
 * The token shapes and the starts of a token cut short are one list (src/redact/token-shapes.ts):
 * a copy had drifted, so a `secret_...` token cut on arrival kept its first characters (issue 17).
 */
import { describe, expect, it } from 'vitest';
import { blankTokens, tokenAtEnd } from '../../src/redact/token-shapes.js';
import { REDACTED } from '../../src/redact/token-shapes.js';

const PREFIXES = [
  'sk-',
  'sk_',
  'pk-',
  'rk_',
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'ghr_',
  'github_pat_',
  'glpat_',
  'xoxb-',
  'xoxp_',
  'shpat_',
  'shpss_',
  'ntn_',
  'secret_',
  'lin_api_',
  'sntrys_',
];

describe('token shapes', () => {
  it.each(PREFIXES)('%s: a whole token is blanked', (prefix) => {
    expect(blankTokens(`key ${prefix}A1b2C3d4E5f6 end`)).toBe(`key ${REDACTED} end`);
  });

  it.each(PREFIXES)('%s: a token cut short is found at the end of the text', (prefix) => {
    expect(tokenAtEnd(`key ${prefix}A1b`)).toBe(prefix.length + 3);
  });

  it('leaves words that only look alike', () => {
    expect(tokenAtEnd('the secretary')).toBe(0);
    expect(blankTokens('secret_ward')).toBe('secret_ward');
  });
});
