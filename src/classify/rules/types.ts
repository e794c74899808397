import type { ToolReport } from '../../model/schema.js';
import type { RuleId } from '../../model/catalogue.js';
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

/** A finding before the registry makes it with `finding()`: the rule's id, and its usual severity unless the hit says otherwise. */
export type Hit = FindingExtra & { message: string };


/** A check; its severity, title and page are its catalogue entry's (catalogue.ts). */
export type Rule =
  | { id: RuleId; scope: 'tool'; check(ctx: ToolContext): Hit[] }
  | { id: RuleId; scope: 'server'; check(ctx: ServerContext): Hit[] };
