import type { ToolReport } from '../../model/schema.js';
import type { RuleIdOf } from '../../model/catalogue.js';
import type { FindingExtra } from '../../model/finding.js';

/** What a tool rule sees: the classified tool and the raw entry it came from. */
export interface ToolContext {
  tool: ToolReport;
  raw: Record<string, unknown>;
  server: ServerContext;
}

/** What a server rule sees: every classified tool of one server. */
export interface ServerContext {
  name: string;
  capabilities?: Record<string, unknown>;
  idempotencyCapability: boolean;
  trusted: boolean;
  tools: ToolReport[];
  raws: Record<string, unknown>[];
}

/** Before the registry makes it with `finding()`; the rule's usual severity unless the hit says otherwise. */
export type Hit = FindingExtra & { message: string };

/** The id's scope types the check, so a tool rule cannot carry a server rule's id. */
export interface ToolRule {
  id: RuleIdOf<'tool'>;
  check(ctx: ToolContext): Hit[];
}
export interface ServerRule {
  id: RuleIdOf<'server'>;
  check(ctx: ServerContext): Hit[];
}
export type Rule = ToolRule | ServerRule;
