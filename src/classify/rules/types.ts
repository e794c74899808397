import type { Finding, Severity, ToolReport } from '../../report/schema.js';

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

/** A finding before the registry stamps it with the rule's id and severity. */
export type Hit = Omit<Finding, 'rule' | 'severity'> & { severity?: Severity };

interface RuleBase {
  id: string;
  /** The usual severity; a hit may lower or raise it. */
  severity: Severity;
  title: string;
}

/** What the docs, SARIF and `--fail-on` know of a rule: also the connector's findings. */
export type RuleInfo = RuleBase;

export type Rule =
  | (RuleBase & { scope: 'tool'; check(ctx: ToolContext): Hit[] })
  | (RuleBase & { scope: 'server'; check(ctx: ServerContext): Hit[] });
