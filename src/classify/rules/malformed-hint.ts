import { HINT_NAMES } from '../hints.js';
import type { Rule } from './types.js';

/** A hint that is not a boolean: strict clients reject the whole tool list, lenient ones the hint. */
export const malformedHint: Rule = {
  id: 'malformed-hint',
  severity: 'error',
  title: 'An annotation hint is not a boolean',
  scope: 'tool',
  check: ({ tool }) =>
    HINT_NAMES.filter((h) => tool.annotations && h in tool.annotations && typeof tool.annotations[h] !== 'boolean').map((h) => ({
      message: `${h} is ${JSON.stringify(tool.annotations![h])}, not a boolean; the SDK rejects the whole tool list for it, and the default (${h === 'readOnlyHint' || h === 'idempotentHint' ? 'false' : 'true'}) applies`,
      evidence: `annotations.${h}`,
    })),
};
