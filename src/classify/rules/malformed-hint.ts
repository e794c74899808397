import { describeHint, HINT_NAMES, receivedAnnotations } from '../hints.js';
import { RULE } from '../../model/catalogue.js';
import { booleanFix } from './fixes.js';
import type { Rule } from './types.js';

/** A hint that is not a boolean: strict clients reject the whole tool list, lenient ones the hint. */
export const malformedHint: Rule = {
  id: RULE.malformedHint,
  scope: 'tool',
  check: ({ raw }) => {
    const received = receivedAnnotations(raw); // as sent, not the report's bounded copy
    return HINT_NAMES.filter((h) => received && Object.hasOwn(received, h) && typeof received[h] !== 'boolean').map((h) => {
      const fix = booleanFix(h, received![h]); // "true" as a string: the author meant the boolean
      return {
        message: `${h} is ${describeHint(received![h])}, not a boolean; the SDK rejects the whole tool list for it, and the default (${h === 'readOnlyHint' || h === 'idempotentHint' ? 'false' : 'true'}) applies`,
        evidence: `annotations.${h}`,
        ...(fix ? { fix } : {}),
      };
    });
  },
};
