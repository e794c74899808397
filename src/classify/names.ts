// Names compare as words, so casing and separators do not matter. Bounds: docs/INTERNALS.md, "Untrusted input".
import { LIMITS } from '../model/limits.js';
import { DESCRIPTION_LIMIT } from '../model/bounds.js';
import { cutHead } from '../model/cut.js';

/** Matched against the name's words joined; anchored at the end so `idempotency_key_ttl` is not one. */
const STRONG = [
  /idempoten(?:cy|ce|t)(?:key|token|id)$/,
  /^(?:client|clientrequest)token$/,
  /dedup(?:e|lication)?(?:key|id|token)$/,
];
const WEAK = [
  /(?:^|x)requestid$/,
  /requestkey$/,
  /^operationid$/,
  /^clientreferenceid$/,
  /^clientrequestid$/,
  /^nonce$/,
  /^idempotency$/,
  /^dedup(?:e|lication)?$/,
];
const DESCRIPTION = /idempoten|de-?dup|duplicate (?:request|submission|charge|payment|order)s?/i;

export const NAME_LIMIT = LIMITS.readNameChars;

/** The only part of server text any regular expression gets to see. */
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

/** No regular expression: `clientRequestToken` -> client, request, token; `HTTPServer` -> http, server. */
export function nameWords(name: string): string[] {
  return splitWords(head(name, NAME_LIMIT), false);
}

/** A sentence ends at a line break, or at `.`/`!`/`?` before a space or the end (not in `v1.2`). */
const SENTENCE = '';
/** A clause also ends at `;` or `:` ("Optional: idempotency key"), inside its sentence. */
const CLAUSE = ';';

function clauseEnd(text: string, i: number): string | undefined {
  const c = text.charCodeAt(i);
  if (c === 10 || c === 13) return SENTENCE;
  if (c === 59 || c === 58) return CLAUSE;
  if (c !== 46 && c !== 33 && c !== 63) return undefined;
  const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 32;
  return next === 32 || next === 9 || next === 10 || next === 13 ? SENTENCE : undefined;
}

/** With `clauses`, SENTENCE and CLAUSE mark where sentences and clauses end. */
function splitWords(text: string, clauses: boolean): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const k = i < text.length ? kind(text.charCodeAt(i)) : SEPARATOR;
    if (k === SEPARATOR) {
      if (start >= 0) words.push(text.slice(start, i).toLowerCase());
      start = -1;
      const end = clauses && i < text.length ? clauseEnd(text, i) : undefined;
      if (end !== undefined && words.length > 0) {
        const last = words[words.length - 1];
        if (last === CLAUSE) words[words.length - 1] = end;
        else if (last !== SENTENCE) words.push(end);
      }
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

export function describesKey(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const bound = head(text, DESCRIPTION_LIMIT);
  const m = DESCRIPTION.exec(bound);
  // The window before the mention is 40 characters: NEGATED's nested repetition stays cheap.
  return !!m && !NEGATED.test(bound.slice(Math.max(0, m.index - 40), m.index));
}

const KEY_NOUNS = new Set(['key', 'token', 'id', 'identifier']);
/** `de-duplication` is read as one word (joinDe). */
const KEY_QUALIFIERS = new Set([
  'idempotency',
  'idempotence',
  'dedup',
  'dedupe',
  'deduplication',
  'deduplicate',
  'deduplicating',
  'deduping',
]);
/** Words that may precede the phrase in its clause; any other ("Unlike", "See") means another subject. */
const LEAD = new Set([
  'a',
  'an',
  'the',
  'this',
  'it',
  'its',
  'is',
  'be',
  'will',
  'as',
  'used',
  'use',
  'serves',
  'acts',
  'works',
  'optional',
  'optionally',
  'required',
  'unique',
  'client',
  'caller',
  'user',
  'supplied',
  'provided',
  'generated',
  'chosen',
  'specified',
  'random',
  'opaque',
  'arbitrary',
  'string',
  'value',
  'uuid',
  'v4',
  'per',
  'request',
  'your',
  'own',
  'custom',
  's',
  'id',
  'identifier',
]);
const MAX_LEAD = 8;
/** A negation anywhere after the phrase in its clause: "Idempotency key (not supported yet)". */
const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'ignored',
  'unused',
  'unsupported',
  'deprecated',
  'without',
  'cannot',
  't',
]);
/** Names a description never turns into a key, whatever it says: credentials and sessions. */
const CREDENTIAL_WORDS = new Set(['api', 'secret', 'password', 'auth', 'access', 'bearer', 'session', 'apikey']);

/** A clause that starts with a key phrase and no negation after it; a mere mention of idempotency does not count. */
export function callsItselfAKey(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  const words = joinDe(splitWords(head(text, DESCRIPTION_LIMIT), true));
  const negated = negatedFrom(words);
  let clause = 0;
  while (clause < words.length) {
    let end = clause;
    while (end < words.length && words[end] !== SENTENCE && words[end] !== CLAUSE) end++;
    const at = phraseEnd(words, clause, end);
    // A negation counts to the end of the sentence: "Idempotency key; this server doesn't honour it".
    if (at >= 0 && !negated[at]) return true;
    clause = end + 1;
  }
  return false;
}

/** `de-duplication`, `de-dupe`: the two words as one. */
function joinDe(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === 'de' && i + 1 < words.length && words[i + 1]!.startsWith('dup')) out.push(`de${words[++i]!}`);
    else out.push(words[i]!);
  }
  return out;
}

function phraseEnd(words: string[], from: number, to: number): number {
  for (let i = from; i < to && i - from <= MAX_LEAD; i++) {
    const w = words[i]!;
    // "idempotency key", "idempotency request key"
    if (KEY_QUALIFIERS.has(w)) {
      if (i + 1 < to && KEY_NOUNS.has(words[i + 1]!)) return i + 2;
      if (i + 2 < to && words[i + 1] === 'request' && KEY_NOUNS.has(words[i + 2]!)) return i + 3;
    }
    // "key used for deduplication", "token to deduplicate retries", "id for idempotency"
    if (KEY_NOUNS.has(w)) {
      let j = i + 1;
      if (words[j] === 'used') j++;
      if (
        j < to &&
        (words[j] === 'for' || words[j] === 'to') &&
        j + 1 < to &&
        (KEY_QUALIFIERS.has(words[j + 1]!) || words[j + 1] === 'idempotent')
      )
        return j + 2;
    }
    if (!LEAD.has(w)) return -1;
  }
  return -1;
}

function negatedFrom(words: string[]): boolean[] {
  const out = new Array<boolean>(words.length + 1).fill(false);
  for (let i = words.length - 1; i >= 0; i--)
    out[i] = words[i] === SENTENCE ? false : NEGATIONS.has(words[i]!) || out[i + 1]!;
  return out;
}

/** `api_key` stays no key however it is described. */
export function mayBeDescribedKey(name: string): boolean {
  return !nameWords(name).some((w) => CREDENTIAL_WORDS.has(w));
}
