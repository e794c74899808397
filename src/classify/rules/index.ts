/**
 * The rules, in the order findings are reported. Each rule lives in its own file; its id, usual
 * severity, title and page (docs/rules/<id>.md) are its entry in the catalogue (catalogue.ts).
 */
import type { Finding } from '../../model/schema.js';
import { finding } from '../../model/finding.js';
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
import type { Hit, Rule, ServerContext, ToolContext } from './types.js';
import { uniformHints } from './uniform-hints.js';
import { weakKeyOnly } from './weak-key-only.js';
import { writeNameReadOnly } from './write-name-read-only.js';

export const RULES: Rule[] = [
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
  duplicateToolName,
  uniformHints,
  idempotencyCapability,
];

const stamp = (rule: Rule, { message, ...extra }: Hit): Finding => finding(rule.id, message, extra);

export function runToolRules(ctx: ToolContext): Finding[] {
  return RULES.flatMap((rule) => (rule.scope === 'tool' ? rule.check(ctx).map((h) => stamp(rule, { tool: ctx.tool.name, ...h })) : []));
}

export function runServerRules(ctx: ServerContext): Finding[] {
  return RULES.flatMap((rule) => (rule.scope === 'server' ? rule.check(ctx).map((h) => stamp(rule, h)) : []));
}
