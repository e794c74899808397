import { RULE } from '../../model/catalogue.js';
import type { ToolRule } from './types.js';
import { writeVerb } from './words.js';

/** Verbs that add something new on every call: an idempotency claim for them needs a key to be believable. */
const ACCUMULATING = new Set([
  'create',
  'send',
  'post',
  'pay',
  'charge',
  'add',
  'append',
  'insert',
  'submit',
  'publish',
  'transfer',
  'push',
  'comment',
  'reply',
  'invite',
  'buy',
  'purchase',
  'deposit',
  'withdraw',
  'refund',
]);

/** docs/rules/destructive-idempotent-unkeyed.md; on trusted servers too: trust does not make a wrong claim right. */
export const destructiveIdempotentUnkeyed: ToolRule = {
  id: RULE.destructiveIdempotentUnkeyed,
  check: ({ tool, raw }) => {
    if (tool.verdict !== 'idempotent' || !tool.effective.destructive) return [];
    const verb = writeVerb(String(raw.name));
    const accumulating = verb !== undefined && ACCUMULATING.has(verb);
    return [
      {
        severity: accumulating ? 'warning' : 'info',
        message: accumulating
          ? `idempotentHint is true on a destructive "${verb}" tool with no key: "${verb}" normally acts anew on every call, so nothing backs the claim; take an idempotency_key`
          : 'idempotentHint is true on a destructive tool with no key: retry-safe only if the claim holds (an overwrite or a delete by id); a key would let the server prove it',
        evidence: 'annotations.idempotentHint',
      },
    ];
  },
};
