import { RULE } from '../../model/catalogue.js';
import type { ServerRule } from './types.js';

/** SEP-3182 is a proposal: worth knowing, because clients that do not implement it get nothing from it. */
export const idempotencyCapability: ServerRule = {
  id: RULE.idempotencyCapability,
  check: ({ idempotencyCapability }) =>
    idempotencyCapability
      ? [
          {
            message:
              'advertises capabilities.tools.idempotency (SEP-3182, a proposal, not part of the spec): its non-read-only tools are protocol-keyed for clients that send params.idempotencyKey; clients that do not get no protection from it',
            evidence: 'capabilities.tools.idempotency',
          },
        ]
      : [],
};
