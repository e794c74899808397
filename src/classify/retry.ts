/**
 * What a client does when the answer to a `tools/call` is lost (docs/RETRY.md): the scanner's own
 * verdict (classify/verdict.ts, and model/verdicts.ts for what each one lets a client do), turned into
 * one decision. Pure. Two inputs, never told apart by their fields: a `tools/list` entry is judged
 * from its schema and annotations (`retryDecision`); a saved report's verdict is taken only when the
 * caller says the tool is a report's (`retryDecisionFromReport`). A server can write any field into
 * its own entry, `verdict` and `keyArguments` included.
 */
// Types from verdict-ids.ts, not the zod schema: `idemscan/retry`'s .d.ts needs no package.
import type { Verdict } from '../model/verdict-ids.js';
import { verdictInfo } from '../model/verdicts.js';
import { describeHint } from './hints.js';
import { parseKeyPath, placeKey } from './key-place.js';
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

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Made = DistributiveOmit<RetryDecision, 'verdict' | 'reason'>;

const PROTOCOL_KEY: KeyLocation = { in: 'params', field: 'idempotencyKey' };

/** One decision per verdict; `satisfies` keeps it total when a verdict is added. Looked up only through `known`. */
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

/** One of the five verdicts: an own key of DECIDE, so `toString` or `__proto__` is not one. */
const known = (v: unknown): v is Verdict => typeof v === 'string' && Object.hasOwn(DECIDE, v);

/**
 * The key to send, the same rule for both inputs: the first strong key argument whose name and path
 * are strings and whose path `placeKey` writes (else `withRetryKey` would re-issue without a key).
 */
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

/** A value for a reason, as hints are quoted (short JSON), and only printable ASCII: nothing a terminal acts on. */
function shown(value: unknown): string {
  return describeHint(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Whether to re-issue a call whose answer was lost, for an entry of `tools/list` as the server sent
 * it: judged from its `inputSchema` (key arguments) and `annotations`, and `context.capabilities`;
 * any other field (a `verdict`, `keyArguments`) is the server's own words and is not read.
 */
export function retryDecision(tool: Record<string, unknown>, context: RetryContext = {}): RetryDecision {
  const raw = tool && typeof tool === 'object' ? tool : {};
  const { verdict, keyArguments } = toolVerdict(raw, advertisesIdempotency(context.capabilities));
  return decide(verdict, keyArguments, context.trusted === true);
}

/**
 * The same decision for a tool of a saved idemscan report (`servers[].tools[]`), whose `verdict`
 * and `keyArguments` are taken as the scan wrote them. A verdict idemscan does not know gives
 * `never` (as `unprotected`), with a reason that names it.
 */
export function retryDecisionFromReport(
  tool: ReportedTool,
  context: Pick<RetryContext, 'trusted'> = {},
): RetryDecision {
  const verdict: unknown = tool && typeof tool === 'object' ? tool.verdict : undefined;
  if (!known(verdict))
    return {
      decision: 'never',
      verdict: 'unprotected',
      reason: `the report's verdict ${shown(verdict)} is not one idemscan knows: a re-issue may repeat the effect`,
    };
  return decide(verdict, tool.keyArguments, context.trusted === true);
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
