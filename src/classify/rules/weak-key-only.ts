import { DESCRIPTION_LIMIT } from '../../model/bounds.js';
import { head, mentionsIdempotency } from '../names.js';
import { RULE } from '../../model/catalogue.js';
import type { ToolRule } from './types.js';

const KEY_OR_DEDUP = /\bidempoten\w*[\s-]*(?:keys?|tokens?|ids?|headers?)\b|\bde-?dup/i;
/** Says nothing of keys when idempotentHint says so already. */
const CLAIM = /\bidempoten/i;
/** A promise only beside a word that keeps them out ("duplicate orders are rejected"). */
const DUPLICATES = /\bduplicate (?:request|submission|charge|payment|order)s?\b/i;
const PREVENTS = /\b(?:prevent|avoid|ignor|reject|detect|suppress|guard|protect|collaps|drop)\w*/i;
const NEGATION = /^(?:not|no|never|non|without|cannot)$|n['’]t$/i;

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

/** Negations do not count, nor a description repeating the idempotentHint. */
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
