// What `idemscan probe` adds to a report (docs/PROBE.md); optional there, so `scan` reports load.
import { z } from 'zod';

export const ProbeOutcome = z.enum([
  'retry-safe',
  'reissue-refused',
  'repeated-effect',
  'inconclusive',
  'failed',
  'not-probed',
]);

/** In the order sent. */
export const ProbeCall = z.object({
  /** `observe-before`, `call`, `observe-after-call`, `reissue`, `observe-after-reissue`, `conflict`. */
  step: z.string(),
  tool: z.string(),
  /** The re-issue has a new one. */
  id: z.number().int().optional(),
  ms: z.number().int(),
  /** `error`: a JSON-RPC error; `tool-error`: a result with `isError: true`. */
  status: z.enum(['ok', 'error', 'tool-error', 'no-answer']),
  /** Its content as text, bounded, or why there was none. */
  answer: z.string().optional(),
});

/** What the hints claim against what the experiment saw (docs/PROBE.md, "Declared against observed"). */
export const Agreement = z.enum(['agrees', 'overstates', 'understates']);

/** The files an `--auto` experiment saw change, each `path: how`; bounded. */
export const FileChanges = z.object({
  call: z.array(z.string()),
  reissue: z.array(z.string()),
  /** Paths that changed in the control, whatever was called (a server's own log): left out of both. */
  ignored: z.array(z.string()),
  truncated: z.string().optional(),
});

export const ToolProbe = z.object({
  /** `auto`: arguments made from the schema, observed through the sandbox's files; absent: the plan's. */
  method: z.enum(['plan', 'auto']).optional(),
  /** The plan's case, 1-based. */
  case: z.number().int().min(1).optional(),
  outcome: ProbeOutcome,
  /** A JSONPath into the arguments and/or `params.idempotencyKey`, joined by ", ". */
  key: z.string().nullable(),
  /** With `conflictArguments`: the server's answer to the same key with other arguments. */
  conflict: z.enum(['rejected', 'accepted']).optional(),
  /** `--auto`: the arguments made for the call and its re-issue. */
  arguments: z.record(z.string(), z.unknown()).optional(),
  agreement: Agreement.optional(),
  evidence: z.object({
    reason: z.string(),
    observer: z.string().optional(),
    changes: FileChanges.optional(),
    calls: z.array(ProbeCall),
    /** Observer calls included. */
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
  /** The effect happened once and the re-issue answered an error. */
  reissueRefused: z.number().int().optional(),
  /** Tools called only as observers, not counted in notProbed. */
  observers: z.number().int().optional(),
  observerCalls: z.number().int().optional(),
});

export const ProbeSetup = z.object({
  calls: z.array(ProbeCall),
  /** A step failed, so no experiment ran. */
  failed: z.string().optional(),
  requests: z.number().int(),
  durationMs: z.number().int(),
});

export type ProbeOutcome = z.infer<typeof ProbeOutcome>;
export type ProbeCall = z.infer<typeof ProbeCall>;
export type ToolProbe = z.infer<typeof ToolProbe>;
export type Agreement = z.infer<typeof Agreement>;
export type FileChanges = z.infer<typeof FileChanges>;
export type ProbeSummary = z.infer<typeof ProbeSummary>;
export type ProbeSetup = z.infer<typeof ProbeSetup>;

/** In memory only: probe/prepare.ts makes it, probe/run.ts sends it, probe/outcome.ts judges it. */
export interface ProbeExperiment {
  name: string;
  case?: number;
  /** With the key at every strong key argument's path. */
  arguments: Record<string, unknown>;
  conflictArguments?: Record<string, unknown>;
  observe?: { tool: string; arguments: Record<string, unknown> };
  /** Absent: --timeout. */
  timeoutMs?: number;
  key: string;
  /** The server advertises `tools.idempotency`. */
  protocolKey: boolean;
  keyLocations: string[];
}

export interface SentCall extends ProbeCall {
  /** The result's content as JSON, never `_meta`: a server may stamp it. */
  compared?: string;
  why?: string;
  /** The connection is gone: later experiments cannot run. */
  ended?: string;
}

export interface RanExperiment {
  calls: SentCall[];
  durationMs: number;
  notRun?: string;
}
