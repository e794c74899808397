import { DESCRIPTION_LIMIT } from '../../model/bounds.js';
import { head, mentionsIdempotency } from '../names.js';
import { RULE } from '../../model/catalogue.js';
import type { ToolRule } from './types.js';

/** A key or deduplication named outright: "idempotency key", "dedupe", "deduplicated". */
const KEY_OR_DEDUP = /\bidempoten\w*[\s-]*(?:keys?|tokens?|ids?|headers?)\b|\bde-?dup/i;
/** The tool called idempotent, which says nothing of keys when its idempotentHint says so already. */
const CLAIM = /\bidempoten/i;
/** Duplicates named: a promise only next to a word that keeps them out ("duplicate orders are rejected"). */
const DUPLICATES = /\bduplicate (?:request|submission|charge|payment|order)s?\b/i;
const PREVENTS = /\b(?:prevent|avoid|ignor|reject|detect|suppress|guard|protect|collaps|drop)\w*/i;
/** A negation among the few words before a match: "not", "isn't", "non-", "never", "no", "without". */
const NEGATION = /^(?:not|no|never|non|without|cannot)$|n['’]t$/i;

/** `re` matches somewhere in `clause` without a negation among the four words before it ("not guaranteed to be idempotent"). */
function saysPositively(clause: string, re: RegExp): boolean {
  const global = new RegExp(re.source, 'gi');
  for (const m of clause.matchAll(global)) {
    const before = clause
      .slice(Math.max(0, m.index - 60), m.index)
      .split(/[\s-]+/)
      .filter(Boolean)
      .slice(-4);
    if (!before.some((w) => NEGATION.test(w))) return true;
  }
  return false;
}

/**
 * The description says the tool deduplicates or takes a key: "Retried requests are deduplicated",
 * "duplicate orders are rejected". Negations do not count ("not idempotent", "non-idempotent",
 * "duplicate requests create duplicate orders"), nor, when `hintSaysIdempotent`, a description
 * that only repeats that the tool is idempotent.
 */
export function describesDeduplication(description: string | undefined, hintSaysIdempotent: boolean): boolean {
  if (!description || !mentionsIdempotency(description)) return false;
  return head(description, DESCRIPTION_LIMIT)
    .split(/[.;:!?\n]+/)
    .some(
      (clause) =>
        saysPositively(clause, KEY_OR_DEDUP) ||
        (DUPLICATES.test(clause) && saysPositively(clause, PREVENTS)) ||
        (!hintSaysIdempotent && saysPositively(clause, CLAIM)),
    );
}

/**
 * Something suggests deduplication (`request_id`, `nonce`, a description that promises it) but
 * no argument is a key a client can recognise, so the verdict stays `unprotected`/`idempotent`.
 */
export const weakKeyOnly: ToolRule = {
  id: RULE.weakKeyOnly,
  check: ({ tool }) => {
    if (tool.verdict !== 'unprotected' && tool.verdict !== 'idempotent') return [];
    const weak = tool.keyArguments
      .filter((k) => k.confidence === 'weak')
      .map((k) => k.path)
      .slice(0, 5);
    const described = describesDeduplication(tool.description, tool.effective.idempotent);
    if (weak.length === 0 && !described) return [];
    const what =
      weak.length > 0
        ? `argument ${weak.join(', ')} may be a key`
        : 'the description mentions idempotency or deduplication';
    return [
      {
        message: `${what}, but no argument is a recognisable idempotency key, so clients cannot rely on it; if the server deduplicates on it, name it idempotency_key (or advertise tools.idempotency)`,
        evidence: weak.length > 0 ? weak.join(', ') : 'description',
      },
    ];
  },
};
