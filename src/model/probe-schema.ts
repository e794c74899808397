/**
 * What `idemscan probe` adds to a report (docs/PROBE.md): one experiment per planned tool, and
 * their counts. Every field is optional in the report, so reports of `scan` and older ones load.
 */
import { z } from 'zod';

export const ProbeOutcome = z.enum([
  'retry-safe',
  'reissue-refused',
  'repeated-effect',
  'inconclusive',
  'failed',
  'not-probed',
]);

/** One request of an experiment, in the order sent. */
export const ProbeCall = z.object({
  /** `observe-before`, `call`, `observe-after-call`, `reissue`, `observe-after-reissue`, `conflict`. */
  step: z.string(),
  tool: z.string(),
  /** The JSON-RPC id it went out with: the re-issue has a new one. */
  id: z.number().int().optional(),
  ms: z.number().int(),
  /** `ok`, `error` (a JSON-RPC error), `tool-error` (a result with `isError: true`), `no-answer` (timeout, exit). */
  status: z.enum(['ok', 'error', 'tool-error', 'no-answer']),
  /** The answer (its content as text, bounded), or why there was none. */
  answer: z.string().optional(),
});

export const ToolProbe = z.object({
  /** The plan lists cases for this tool: which one this is (1-based, in plan order); absent otherwise. */
  case: z.number().int().min(1).optional(),
  outcome: ProbeOutcome,
  /** Where the key went: a JSONPath into the arguments, `params.idempotencyKey`, both joined by ", ", or null. */
  key: z.string().nullable(),
  /** With `conflictArguments`: did the server refuse the same key with other arguments? */
  conflict: z.enum(['rejected', 'accepted']).optional(),
  evidence: z.object({
    /** Why the outcome is what it is, in one sentence. */
    reason: z.string(),
    observer: z.string().optional(),
    calls: z.array(ProbeCall),
    /** Requests sent (observer calls included) and the time the experiment took. */
    requests: z.number().int(),
    durationMs: z.number().int(),
  }),
});

export const ProbeSummary = z.object({
  retrySafe: z.number().int(),
  repeatedEffect: z.number().int(),
  inconclusive: z.number().int(),
  failed: z.number().int(),
  notProbed: z.number().int(),
  /** The effect happened once and the re-issue answered an error (absent in reports before it existed). */
  reissueRefused: z.number().int().optional(),
  /** Tools called only as observers (not counted in notProbed), and their calls over every experiment. */
  observers: z.number().int().optional(),
  observerCalls: z.number().int().optional(),
});

/** The plan's `setup` steps as they were called, in order, once, before the experiments. */
export const ProbeSetup = z.object({
  calls: z.array(ProbeCall),
  /** Set when a step failed (an error, `isError`, no answer): then no experiment ran. */
  failed: z.string().optional(),
  requests: z.number().int(),
  durationMs: z.number().int(),
});

export type ProbeOutcome = z.infer<typeof ProbeOutcome>;
export type ProbeCall = z.infer<typeof ProbeCall>;
export type ToolProbe = z.infer<typeof ToolProbe>;
export type ProbeSummary = z.infer<typeof ProbeSummary>;
export type ProbeSetup = z.infer<typeof ProbeSetup>;

/**
 * In memory only, between the layers of the experiment: probe/prepare.ts makes the
 * experiments, probe/run.ts sends their calls, probe/outcome.ts judges them.
 */
export interface ProbeExperiment {
  name: string;
  /** The plan lists cases for this tool: this one's number (1-based). */
  case?: number;
  /** The plan's arguments with the key at every strong key argument's path. */
  arguments: Record<string, unknown>;
  conflictArguments?: Record<string, unknown>;
  observe?: { tool: string; arguments: Record<string, unknown> };
  /** The plan's bound on each call of this tool; absent: --timeout. */
  timeoutMs?: number;
  key: string;
  /** The key also goes in `params.idempotencyKey` (the server advertises `tools.idempotency`). */
  protocolKey: boolean;
  /** Where the key went, as the report names it (`ToolProbe.key`). */
  keyLocations: string[];
}

/** A call as sent, with what the observer comparison needs: its answer in a canonical form. */
export interface SentCall extends ProbeCall {
  /** `content` and `structuredContent` of the result as JSON (never `_meta`: a server may stamp it). */
  compared?: string;
  /** For a failure: what went wrong, in words. */
  why?: string;
  /** The connection is gone (an exit, a closed stream): later experiments cannot run. */
  ended?: string;
}

/** What the connector did for one experiment: its calls in order, or why none was sent. */
export interface RanExperiment {
  calls: SentCall[];
  durationMs: number;
  /** Not run (interrupted, or the connection ended in an earlier experiment). */
  notRun?: string;
}
