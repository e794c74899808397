import { mentionsIdempotency } from '../keys.js';
import type { Rule } from './types.js';

const NEGATED = /\b(not|non-?|never|no)\s*(idempoten|de-?dup)/i;

/**
 * Something suggests deduplication (`request_id`, `nonce`, a description about idempotency) but
 * no argument is a key a client can recognise, so the verdict stays `unprotected`/`idempotent`.
 */
export const weakKeyOnly: Rule = {
  id: 'weak-key-only',
  severity: 'warning',
  title: 'Only weak evidence of an idempotency key',
  scope: 'tool',
  check: ({ tool }) => {
    if (tool.verdict !== 'unprotected' && tool.verdict !== 'idempotent') return [];
    const weak = tool.keyArguments.filter((k) => k.confidence === 'weak').map((k) => k.path).slice(0, 5);
    const described = mentionsIdempotency(tool.description) && !NEGATED.test(tool.description ?? '');
    if (weak.length === 0 && !described) return [];
    const what = weak.length > 0 ? `argument ${weak.join(', ')} may be a key` : 'the description mentions idempotency or deduplication';
    return [{
      message: `${what}, but no argument is a recognisable idempotency key, so clients cannot rely on it; if the server deduplicates on it, name it idempotency_key (or advertise tools.idempotency)`,
      evidence: weak.length > 0 ? weak.join(', ') : 'description',
    }];
  },
};
