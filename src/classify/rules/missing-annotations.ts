import { HINT_NAMES, receivedAnnotations } from '../hints.js';
import { RULE } from '../../model/catalogue.js';
import { describesOverwrite, overwriteFix } from './fixes.js';
import type { ToolRule } from './types.js';
import { isReadNamed } from './words.js';

/** A read-named tool is left to `read-name-not-read-only`, whose fix is the one that matters there. */
export const missingAnnotations: ToolRule = {
  id: RULE.missingAnnotations,
  check: ({ tool, raw }) => {
    const received = receivedAnnotations(raw); // as sent: a hint too deep for the report is still a hint
    if (HINT_NAMES.some((h) => received && Object.hasOwn(received, h))) return [];
    if (isReadNamed(String(raw.name))) return [];
    return [
      {
        message: `no behaviour hints: clients must assume readOnlyHint false, destructiveHint true, idempotentHint false (verdict ${tool.verdict}); say what it does with annotations`,
        evidence: 'annotations',
        ...(describesOverwrite(raw.description) ? { fix: overwriteFix() } : {}),
      },
    ];
  },
};
