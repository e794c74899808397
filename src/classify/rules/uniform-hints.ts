import { HINT_NAMES } from '../hints.js';
import { RULE } from '../../model/catalogue.js';
import type { ServerRule } from './types.js';

const MIN_TOOLS = 3;

/** All read-only tools are left alone: identical hints are then simply right. */
export const uniformHints: ServerRule = {
  id: RULE.uniformHints,
  check: ({ tools }) => {
    if (tools.length < MIN_TOOLS || tools.every((t) => t.effective.readOnly)) return [];
    const hintsOf = (a: Record<string, unknown> | undefined) =>
      HINT_NAMES.filter((h) => a && h in a)
        .map((h) => `${h}: ${JSON.stringify(a![h])}`)
        .join(', ');
    const first = hintsOf(tools[0]!.annotations);
    if (first === '' || tools.some((t) => hintsOf(t.annotations) !== first)) return [];
    return [
      {
        message: `all ${tools.length} tools carry the same hints (${first}): they were probably copied, not decided per tool; check each tool's hints`,
        evidence: 'annotations',
      },
    ];
  },
};
