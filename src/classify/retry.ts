/**
 * What a client does when the answer to a `tools/call` is lost (docs/RETRY.md): the scanner's own
 * verdict (classify/verdict.ts, and model/verdicts.ts for what each one lets a client do), turned into
 * one decision. Pure: the tool as `tools/list` gave it, or a tool of an idemscan report.
 */
// Types from verdict-ids.ts, not the zod schema: `idemscan/retry`'s .d.ts needs no package.
import type { Verdict } from '../model/verdict-ids.js';
import { verdictInfo } from '../model/verdicts.js';
import { placeKey } from './key-place.js';
import { toolVerdict } from './tool-verdict.js';
import { advertisesIdempotency } from './verdict.js';

/** What a decision reads of a tool of an idemscan report (a `ToolReport` is one). */
export interface ReportedTool {
  verdict: Verdict;
  keyArguments: readonly { name: string; path: string; confidence: string }[];
}

/** Where the key goes: `params.idempotencyKey` of the request, or an argument at a JSONPath. */
export type KeyLocation = { in: 'params'; field: 'idempotencyKey' } | { in: 'arguments'; path: string; name: string };

export type RetryDecision =
  /** Re-issue as it was: read-only, or an idempotent tool of a trusted server. */
  | { decision: 'safe'; verdict: Verdict; reason: string }
  /** Re-issue with the same key, at `key`; a key generated before the first attempt. */
  | { decision: 'with-key'; verdict: Verdict; reason: string; key: KeyLocation }
  /** Only the server's idempotentHint says a retry is harmless: re-issue only if you trust the server. */
  | { decision: 'if-trusted'; verdict: Verdict; reason: string }
  /** A re-issue may repeat the effect: surface "outcome unknown" instead. */
  | { decision: 'never'; verdict: Verdict; reason: string };

export interface RetryContext {
  /** The server's capabilities as it sent them (`capabilities.tools.idempotency`, SEP-3182). */
  capabilities?: Record<string, unknown>;
  /** The user trusts this server's hints. */
  trusted?: boolean;
}

const PROTOCOL_KEY: KeyLocation = { in: 'params', field: 'idempotencyKey' };

/** One decision per verdict; `satisfies` keeps it total when a verdict is added. */
const DECIDE = {
  'read-only': () => ({ decision: 'safe' }),
  'protocol-keyed': () => ({ decision: 'with-key', key: PROTOCOL_KEY }),
  keyed: (tool) => {
    const strong = tool.keyArguments.find((k) => k.confidence === 'strong');
    // A report's verdict is taken as is; one edited to `keyed` without its strong key is not retried.
    if (!strong) return { decision: 'never' };
    return { decision: 'with-key', key: { in: 'arguments', path: strong.path, name: strong.name } };
  },
  idempotent: (_tool, trusted) => ({ decision: trusted ? 'safe' : 'if-trusted' }),
  unprotected: () => ({ decision: 'never' }),
} satisfies Record<
  Verdict,
  (tool: Pick<ReportedTool, 'keyArguments'>, trusted: boolean) => DistributiveOmit<RetryDecision, 'verdict' | 'reason'>
>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function isReported(tool: object): tool is ReportedTool {
  return 'verdict' in tool && 'keyArguments' in tool && Array.isArray((tool as ReportedTool).keyArguments);
}

/**
 * Whether to re-issue a call whose answer was lost. `tool`: an entry of `tools/list` (its
 * `inputSchema` and `annotations` are read) or a tool of a report (its verdict is used as is).
 */
export function retryDecision(tool: Record<string, unknown> | ReportedTool, context: RetryContext = {}): RetryDecision {
  const reported = isReported(tool)
    ? tool
    : toolVerdict(tool as Record<string, unknown>, advertisesIdempotency(context.capabilities));
  const trusted = context.trusted === true;
  const made = DECIDE[reported.verdict](reported, trusted);
  const reason =
    made.decision === 'safe' && reported.verdict === 'idempotent'
      ? 'idempotentHint: true, from a server you trust'
      : made.decision === 'never' && reported.verdict === 'keyed'
        ? 'the report says keyed but names no strong key argument: there is no key to send'
        : verdictInfo(reported.verdict).meaning;
  return { ...made, verdict: reported.verdict, reason } as RetryDecision;
}

/**
 * The request's params with the key where the decision says (`params.idempotencyKey`, or the key
 * argument's path); unchanged for any other decision. Make the key once, before the first attempt.
 */
export function withRetryKey<P extends { name: string; arguments?: Record<string, unknown> }>(
  params: P,
  decision: RetryDecision,
  key: string,
): P & { idempotencyKey?: string } {
  if (decision.decision !== 'with-key') return params;
  if (decision.key.in === 'params') return { ...params, idempotencyKey: key };
  return { ...params, arguments: placeKey(params.arguments ?? {}, decision.key.path, key).args };
}
