/**
 * What names and descriptions say about deduplication. Names are compared as words, so casing and
 * separators do not matter (`idempotency_key`, `idempotencyKey`, `Idempotency-Key`). Server text:
 * only the head of a name or description is read, and no regular expression here backtracks.
 */
import { DESCRIPTION_LIMIT } from '../report/bounds.js';
import { cutHead } from '../report/cut.js';

/**
 * Names that can only mean deduplication, matched against the name's words joined. Anchored at
 * the end: `x-idempotency-key` is a key, `idempotency_key_ttl` or `dedupe_key_prefix` is not.
 */
const STRONG = [
  /idempoten(?:cy|ce|t)(?:key|token|id)$/,
  /^(?:client|clientrequest)token$/,
  /dedup(?:e|lication)?(?:key|id|token)$/,
];
/** Names that often, not always, mean it. */
const WEAK = [/(?:^|x)requestid$/, /requestkey$/, /^operationid$/, /^clientreferenceid$/, /^clientrequestid$/, /^nonce$/, /^idempotency$/, /^dedup(?:e|lication)?$/];
const DESCRIPTION = /idempoten|de-?dup|duplicate (?:request|submission|charge|payment|order)s?/i;

/** How much of a name is read: no tool or argument name worth reading is longer. */
export const NAME_LIMIT = 1_024;

/** The head of a server's text, the only part any regular expression gets to see. */
export function head(text: string, max: number): string {
  return cutHead(text, max);
}

const SEPARATOR = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
function kind(code: number): number {
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 48 && code <= 57) return DIGIT;
  return SEPARATOR;
}

/**
 * Words of a name, lower case: `clientRequestToken` -> client, request, token; `HTTPServer` ->
 * http, server. One pass, no regular expression: a word ends at anything that is not an ASCII
 * letter or digit, before a capital that follows a small letter or digit, and before the last
 * capital of a run that a small letter follows. Only the first NAME_LIMIT characters are read.
 */
export function nameWords(name: string): string[] {
  const text = head(name, NAME_LIMIT);
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const k = i < text.length ? kind(text.charCodeAt(i)) : SEPARATOR;
    if (k === SEPARATOR) {
      if (start >= 0) words.push(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (k === UPPER) {
      const prev = kind(text.charCodeAt(i - 1));
      const next = i + 1 < text.length ? kind(text.charCodeAt(i + 1)) : SEPARATOR;
      if (prev === LOWER || prev === DIGIT || (prev === UPPER && next === LOWER)) {
        words.push(text.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  return words;
}

export function keyConfidence(name: string): 'strong' | 'weak' | undefined {
  const joined = nameWords(name).join('');
  if (STRONG.some((re) => re.test(joined))) return 'strong';
  if (WEAK.some((re) => re.test(joined))) return 'weak';
  return undefined;
}

export function mentionsIdempotency(text: unknown): boolean {
  return typeof text === 'string' && DESCRIPTION.test(head(text, DESCRIPTION_LIMIT));
}

/** A negation among the last three words before a mention ("not", "non-", "is not really"). */
const NEGATED = /\b(?:not|non|never|no|without|isn't|aren't|cannot|can't)[\s-]+(?:\w+[\s-]+){0,2}$/i;

/** An argument's description that says it deduplicates: a mention, and not a negated one. */
export function describesKey(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const bound = head(text, DESCRIPTION_LIMIT);
  const m = DESCRIPTION.exec(bound);
  // The window before the mention is 40 characters: NEGATED's nested repetition stays cheap.
  return !!m && !NEGATED.test(bound.slice(Math.max(0, m.index - 40), m.index));
}
