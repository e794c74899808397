import { RULE } from '../../model/catalogue.js';
import type { ToolRule } from './types.js';

/** Hints that agree with a read are not reported: writing every hint out is good practice. */
export const contradictoryHints: ToolRule = {
  id: RULE.contradictoryHints,
  check: ({ tool }) => {
    if (!tool.effective.readOnly) return [];
    const a = tool.annotations ?? {};
    const hits = [];
    if (a.destructiveHint === true) {
      hits.push({
        message:
          'readOnlyHint is true but destructiveHint is true: a read cannot destroy; clients follow readOnlyHint and retry it freely, so fix whichever is wrong',
        evidence: 'annotations.destructiveHint',
      });
    }
    if (a.idempotentHint === false) {
      hits.push({
        severity: 'info' as const,
        message:
          'readOnlyHint is true but idempotentHint is false: meaningless on a read (clients ignore it), and it reads as "not safe to retry"; drop it or set it to true',
        evidence: 'annotations.idempotentHint',
        fix: { annotations: { idempotentHint: true } },
      });
    }
    return hits;
  },
};
