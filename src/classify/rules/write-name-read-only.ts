import { RULE } from '../../model/catalogue.js';
import { describesOverwrite, overwriteFix } from './fixes.js';
import type { ToolRule } from './types.js';
import { writeVerb } from './words.js';

/** Named like a write but marked read-only: a client retries it freely and repeats the write. */
export const writeNameReadOnly: ToolRule = {
  id: RULE.writeNameReadOnly,
  check: ({ tool, raw }) => {
    const verb = writeVerb(String(raw.name));
    if (!tool.effective.readOnly || !verb) return [];
    return [
      {
        message: `named like a write ("${verb}") but readOnlyHint is true, so clients retry it freely; if it changes anything, set readOnlyHint: false and say whether it is idempotent`,
        evidence: 'annotations.readOnlyHint',
        // What else to say is known only when the description tells it: an overwrite.
        fix: describesOverwrite(raw.description) ? overwriteFix() : { annotations: { readOnlyHint: false } },
      },
    ];
  },
};
