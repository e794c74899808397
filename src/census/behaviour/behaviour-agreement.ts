/** A claim is what a client relies on to retry; the probe cannot tell dedup from overwrite, nor need it. */
import type { Agreement, DeclaredHints } from './behaviour.js';
import type { ProbeOutcome } from '../../model/probe-schema.js';
import type { Verdict } from '../../model/verdict-ids.js';
import { agreementFor, claimOf, type Claim } from '../../classify/behaviour.js';

const CLAIM_WORDS: Record<Claim, string> = {
  'read-only': 'declares read-only',
  keyed: 'takes a key',
  idempotent: 'declares idempotent',
  'not-idempotent': 'declares not idempotent',
  nothing: 'declares no idempotentHint (so not idempotent)',
};

/** What the probe saw, in words; undefined when it could not tell. */
const SEEN: Partial<Record<ProbeOutcome, string>> = {
  'retry-safe': 'does not repeat its effect',
  'reissue-refused': 'does its effect once and answers the re-issue with an error',
  'repeated-effect': 'repeats its effect',
};

/** The agreement of one experiment, and its words ("declares idempotent, repeats its effect"). */
export function agreementOf(
  declared: DeclaredHints,
  verdict: Verdict,
  outcome: ProbeOutcome,
  unchanged = false,
): { agreement: Agreement; words: string } {
  const claim = claimOf(declared, verdict);
  const seen = unchanged ? 'changed nothing the probe could see' : SEEN[outcome];
  const said = CLAIM_WORDS[claim];
  const agreement = agreementFor(claim, outcome, unchanged) ?? 'unknown';
  if (seen === undefined) return { agreement, words: `${said}; the probe could not tell (${outcome})` };
  return { agreement, words: `${said}, ${claim === 'read-only' && !unchanged ? `changes state and ${seen}` : seen}` };
}

/** The hints as declared: a boolean, else null (absent, or not a boolean: the default applies). */
export function declaredHints(annotations: Record<string, unknown> | undefined): DeclaredHints {
  const read = (k: string) => (typeof annotations?.[k] === 'boolean' ? (annotations[k] as boolean) : null);
  return {
    readOnlyHint: read('readOnlyHint'),
    destructiveHint: read('destructiveHint'),
    idempotentHint: read('idempotentHint'),
    openWorldHint: read('openWorldHint'),
  };
}
