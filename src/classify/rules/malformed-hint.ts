import { describeHint, HINT_NAMES, receivedAnnotations } from '../hints.js';
import { RULE } from '../../model/catalogue.js';
import { HINTS } from '../../model/verdicts.js';
import { booleanFix } from './fixes.js';
import type { ToolRule } from './types.js';

/** A hint that is not a boolean: strict clients reject the whole tool list, lenient ones the hint. */
export const malformedHint: ToolRule = {
  id: RULE.malformedHint,
  check: ({ raw }) => {
    const received = receivedAnnotations(raw); // as sent, not the report's bounded copy
    return HINT_NAMES.filter((h) => received && Object.hasOwn(received, h) && typeof received[h] !== 'boolean').map(
      (h) => {
        const fix = booleanFix(h, received![h]); // "true" as a string: the author meant the boolean
        return {
          message: `${h} is ${describeHint(received![h])}, not a boolean; the SDK rejects the whole tool list for it, and the default (${HINTS[h].default}) applies`,
          evidence: `annotations.${h}`,
          ...(fix ? { fix } : {}),
        };
      },
    );
  },
};
