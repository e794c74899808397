// docs/RETRY.md. Two entry points, never told apart by fields: a server can write `verdict` into its entry.
// Types from verdict-ids.ts, not the zod schema: `idemscan/retry`'s .d.ts needs no package.
import type { Verdict } from '../model/verdict-ids.js';
import { verdictInfo } from '../model/verdicts.js';
import { describeHint } from './hints.js';
import { parseKeyPath, placeKey } from './key-place.js';
import { toolVerdict } from './tool-verdict.js';
import { advertisesIdempotency } from './verdict.js';

/** What a decision reads of a report's tool (a `ToolReport` is one). */
export interface ReportedTool {
  verdict: Verdict;
  keyArguments: readonly { name: string; path: string; confidence: string }[];
}

/** `params.idempotencyKey` of the request, or an argument at a JSONPath. */
export type KeyLocation = { in: 'params'; field: 'idempotencyKey' } | { in: 'arguments'; path: string; name: string };

export type RetryDecision =
  /** Re-issue as it was: read-only, or an idempotent tool of a trusted server. */
  | { decision: 'safe'; verdict: Verdict; reason: string }
  /** Re-issue with the same key, generated before the first attempt. */
  | { decision: 'with-key'; verdict: Verdict; reason: string; key: KeyLocation }
  /** Only the server's idempotentHint says a retry is harmless. */
  | { decision: 'if-trusted'; verdict: Verdict; reason: string }
  /** A re-issue may repeat the effect: surface "outcome unknown" instead. */
  | { decision: 'never'; verdict: Verdict; reason: string };

export interface RetryContext {
  /** As sent (`capabilities.tools.idempotency`, SEP-3182). */
  capabilities?: Record<string, unknown>;
  /** The user trusts the server's hints. */
  trusted?: boolean;
  /**
   * `false`: the request never left (the connection was down before it was written), so sending it
   * is its first attempt, always safe. The default: sent, outcome unknown.
   */
  sent?: boolean;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Made = DistributiveOmit<RetryDecision, 'verdict' | 'reason'>;

const PROTOCOL_KEY: KeyLocation = { in: 'params', field: 'idempotencyKey' };

/** Looked up only through `known`. */
const DECIDE = {
  'read-only': () => ({ decision: 'safe' }),
  'protocol-keyed': () => ({ decision: 'with-key', key: PROTOCOL_KEY }),
  keyed: (keys) => {
    const strong = strongKey(keys);
    return strong ? { decision: 'with-key', key: { in: 'arguments', ...strong } } : { decision: 'never' };
  },
  idempotent: (_keys, trusted) => ({ decision: trusted ? 'safe' : 'if-trusted' }),
  unprotected: () => ({ decision: 'never' }),
} satisfies Record<Verdict, (keyArguments: unknown, trusted: boolean) => Made>;

/** An own key, so `toString` or `__proto__` is not one. */
const known = (v: unknown): v is Verdict => typeof v === 'string' && Object.hasOwn(DECIDE, v);

/** Only a path `placeKey` writes: else `withRetryKey` would re-issue without a key. */
function strongKey(keys: unknown): { path: string; name: string } | undefined {
  if (!Array.isArray(keys)) return undefined;
  for (const k of keys as unknown[]) {
    if (!k || typeof k !== 'object') continue;
    const { name, path, confidence } = k as Record<string, unknown>;
    if (confidence !== 'strong' || typeof name !== 'string' || typeof path !== 'string') continue;
    if (parseKeyPath(path)?.length) return { path, name };
  }
  return undefined;
}

function decide(verdict: Verdict, keyArguments: unknown, trusted: boolean): RetryDecision {
  const made = DECIDE[verdict](keyArguments, trusted);
  const reason =
    made.decision === 'safe' && verdict === 'idempotent'
      ? 'idempotentHint: true, from a server you trust'
      : made.decision === 'never' && verdict === 'keyed'
        ? 'keyed, but no strong key argument at a path a key can be put: there is no key to send'
        : verdictInfo(verdict).meaning;
  return { ...made, verdict, reason } as RetryDecision;
}

/** Printable ASCII only: nothing a terminal acts on. */
function shown(value: unknown): string {
  return describeHint(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * For a `tools/list` entry: judged from its schema and annotations; its own `verdict` is never read.
 * A probe's observation (`probe.agreement`) is evidence about the server, not an input here: after an
 * `overstates`, do not pass `trusted` for that server (docs/RETRY.md, "Observed behaviour").
 */
export function retryDecision(tool: Record<string, unknown>, context: RetryContext = {}): RetryDecision {
  const raw = tool && typeof tool === 'object' ? tool : {};
  const { verdict, keyArguments } = toolVerdict(raw, advertisesIdempotency(context.capabilities));
  return unsent(decide(verdict, keyArguments, context.trusted === true), context);
}

/** A call that never left is no re-issue: only a with-key decision stays, so the key still goes with it. */
function unsent(decision: RetryDecision, context: Pick<RetryContext, 'sent'>): RetryDecision {
  if (context.sent !== false || decision.decision === 'safe' || decision.decision === 'with-key') return decision;
  return {
    decision: 'safe',
    verdict: decision.verdict,
    reason: 'the call was never sent: sending it now is its first attempt, not a re-issue',
  };
}

/** For a saved report's tool, taking its verdict as written; an unknown verdict gives `never`. */
export function retryDecisionFromReport(
  tool: ReportedTool,
  context: Pick<RetryContext, 'trusted' | 'sent'> = {},
): RetryDecision {
  const verdict: unknown = tool && typeof tool === 'object' ? tool.verdict : undefined;
  if (!known(verdict))
    return {
      decision: 'never',
      verdict: 'unprotected',
      reason: `the report's verdict ${shown(verdict)} is not one idemscan knows: a re-issue may repeat the effect`,
    };
  return unsent(decide(verdict, tool.keyArguments, context.trusted === true), context);
}

/** Params with the key where the decision says; make the key once, before the first attempt. */
export function withRetryKey<P extends { name: string; arguments?: Record<string, unknown> }>(
  params: P,
  decision: RetryDecision,
  key: string,
): P & { idempotencyKey?: string } {
  if (decision.decision !== 'with-key') return params;
  if (decision.key.in === 'params') return { ...params, idempotencyKey: key };
  return { ...params, arguments: placeKey(params.arguments ?? {}, decision.key.path, key).args };
}
