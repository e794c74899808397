import { RULE } from '../../model/catalogue.js';
import type { ToolRule } from './types.js';

/** The spec: clients must treat hints from servers they do not trust as untrusted. */
export const idempotentHintUntrusted: ToolRule = {
  id: RULE.idempotentHintUntrusted,
  check: ({ tool, server }) => {
    if (tool.verdict !== 'idempotent' || server.trusted) return [];
    return [
      {
        message: `retry-safe only by idempotentHint, a hint: not retry-safe unless you trust this server (--trust); a key argument or tools.idempotency would make retries safe without trust`,
        evidence: 'annotations.idempotentHint',
      },
    ];
  },
};
