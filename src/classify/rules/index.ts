/**
 * The rules catalogue, in the order findings are reported. Each rule lives in its own file and
 * has a page under docs/rules/<id>.md.
 */
import type { Finding } from '../../report/schema.js';
import { malformedHint } from './malformed-hint.js';
import type { Hit, Rule, ServerContext, ToolContext } from './types.js';

export const RULES: Rule[] = [malformedHint];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}

const stamp = (rule: Rule, hit: Hit): Finding => ({ rule: rule.id, ...hit, severity: hit.severity ?? rule.severity });

export function runToolRules(ctx: ToolContext): Finding[] {
  return RULES.flatMap((rule) => (rule.scope === 'tool' ? rule.check(ctx).map((h) => stamp(rule, { tool: ctx.tool.name, ...h })) : []));
}

export function runServerRules(ctx: ServerContext): Finding[] {
  return RULES.flatMap((rule) => (rule.scope === 'server' ? rule.check(ctx).map((h) => stamp(rule, h)) : []));
}
