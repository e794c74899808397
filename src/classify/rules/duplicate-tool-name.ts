import { RULE } from '../../model/catalogue.js';
import type { ServerRule } from './types.js';

/** Two tools with one name: a client can call only one, and which one is up to it. */
export const duplicateToolName: ServerRule = {
  id: RULE.duplicateToolName,
  check: ({ raws, tools }) => {
    const at = new Map<string, number[]>();
    raws.forEach((raw, i) => {
      const name = String(raw.name);
      const seen = at.get(name);
      if (seen) seen.push(i);
      else at.set(name, [i]);
    });
    return [...at.values()]
      .filter((ix) => ix.length > 1)
      .map((ix) => {
        const verdicts = [...new Set(ix.map((i) => tools[i]!.verdict))];
        return {
          tool: tools[ix[0]!]!.name,
          message: `${ix.length} tools share this name; a client can call only one of them${verdicts.length > 1 ? `, and their verdicts differ (${verdicts.join(', ')})` : ''}; names must be unique within a server`,
          evidence: ix.map((i) => `tools[${i}]`).join(', '),
        };
      });
  },
};
