// Sorted by catalogue order; the id's scope types which list a rule can be in.
import type { Finding } from '../../model/schema.js';
import { finding } from '../../model/finding.js';
import { ruleOrder, type RuleId } from '../../model/catalogue.js';
import { contradictoryHints } from './contradictory-hints.js';
import { destructiveIdempotentUnkeyed } from './destructive-idempotent-unkeyed.js';
import { duplicateToolName } from './duplicate-tool-name.js';
import { genericDispatcher } from './generic-dispatcher.js';
import { idempotencyCapability } from './idempotency-capability.js';
import { idempotentHintUntrusted } from './idempotent-hint-untrusted.js';
import { invalidToolName } from './invalid-tool-name.js';
import { malformedHint } from './malformed-hint.js';
import { missingAnnotations } from './missing-annotations.js';
import { readNameNotReadOnly } from './read-name-not-read-only.js';
import type { Hit, Rule, ServerContext, ServerRule, ToolContext, ToolRule } from './types.js';
import { uniformHints } from './uniform-hints.js';
import { weakKeyOnly } from './weak-key-only.js';
import { writeNameReadOnly } from './write-name-read-only.js';

const inCatalogueOrder = <T extends { id: RuleId }>(rules: T[]): readonly T[] =>
  rules.sort((a, b) => ruleOrder(a.id) - ruleOrder(b.id));

const TOOL_RULES = inCatalogueOrder<ToolRule>([
  malformedHint,
  invalidToolName,
  missingAnnotations,
  readNameNotReadOnly,
  writeNameReadOnly,
  contradictoryHints,
  idempotentHintUntrusted,
  destructiveIdempotentUnkeyed,
  weakKeyOnly,
  genericDispatcher,
]);

const SERVER_RULES = inCatalogueOrder<ServerRule>([duplicateToolName, uniformHints, idempotencyCapability]);

/** Every rule, in the catalogue's order (which is the order findings are reported in). */
export const RULES = inCatalogueOrder<Rule>([...TOOL_RULES, ...SERVER_RULES]);

const stamp = (rule: Rule, { message, ...extra }: Hit): Finding => finding(rule.id, message, extra);

export function runToolRules(ctx: ToolContext): Finding[] {
  return TOOL_RULES.flatMap((rule) => rule.check(ctx).map((h) => stamp(rule, { tool: ctx.tool.name, ...h })));
}

export function runServerRules(ctx: ServerContext): Finding[] {
  return SERVER_RULES.flatMap((rule) => rule.check(ctx).map((h) => stamp(rule, h)));
}
