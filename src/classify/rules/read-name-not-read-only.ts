import { RULE } from '../../model/catalogue.js';
import { readOnlyFix } from './fixes.js';
import type { ToolRule } from './types.js';
import { isReadNamed, nameVerbs } from './words.js';

/** An explicit `readOnlyHint: false` (a `get_token` that mints one) is only worth a look. */
export const readNameNotReadOnly: ToolRule = {
  id: RULE.readNameNotReadOnly,
  check: ({ tool, raw }) => {
    const name = String(raw.name);
    if (tool.effective.readOnly || !isReadNamed(name)) return [];
    const explicit = tool.annotations?.readOnlyHint === false;
    const said = explicit
      ? 'readOnlyHint is false'
      : tool.annotations
        ? 'readOnlyHint is not given'
        : 'it has no annotations at all';
    return [
      {
        severity: explicit ? 'info' : 'warning',
        message: `named like a read ("${nameVerbs(name)[0]}") but ${said}, so clients must treat it as a write (verdict ${tool.verdict}); if it only reads, set readOnlyHint: true`,
        evidence: 'annotations.readOnlyHint',
        fix: readOnlyFix(),
      },
    ];
  },
};
