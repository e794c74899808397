// Split from schema.ts so diff.ts can use them and schema.ts hold a diff; import them from schema.ts.
import { z } from 'zod';
import { ProbeSummary } from './probe-schema.js';
import { VERDICT_IDS } from './verdict-ids.js';

export const Severity = z.enum(['error', 'warning', 'info']);
export const Verdict = z.enum(VERDICT_IDS);
export const Confidence = z.enum(['strong', 'weak']);

/** Servers with at least one tool of a verdict, weighted by their monthly downloads. */
export const WeightedShare = z.object({
  servers: z.number().int(),
  downloads: z.number().int(),
  /** Of the weighted total, 0 to 1, 4 decimals; 0 when the total is 0. */
  share: z.number(),
});

/** Scanned-ok servers with `downloads`; one counts once per verdict it has, so shares add up past 1. */
export const WeightedSummary = z.object({
  servers: z.number().int(),
  /** The denominator of every share. */
  downloads: z.number().int(),
  verdicts: z.object({
    'read-only': WeightedShare,
    'protocol-keyed': WeightedShare,
    keyed: WeightedShare,
    idempotent: WeightedShare,
    unprotected: WeightedShare,
  }),
});

export const Summary = z.object({
  servers: z.number().int(),
  serversOk: z.number().int(),
  serversFailed: z.number().int(),
  tools: z.number().int(),
  readOnly: z.number().int(),
  notReadOnly: z.number().int(),
  /** Tools with at least one behaviour hint. */
  annotated: z.number().int(),
  protocolKeyed: z.number().int(),
  keyed: z.number().int(),
  idempotent: z.number().int(),
  unprotected: z.number().int(),
  /** Unprotected tools with no hint at all: writes only by the spec's defaults. */
  unprotectedUndeclared: z.number().int().optional(),
  /** Only when some scanned-ok server has a `downloads` figure. */
  weighted: WeightedSummary.optional(),
  /** `idemscan probe` only. */
  probe: ProbeSummary.optional(),
});

export type Severity = z.infer<typeof Severity>;
export type Verdict = z.infer<typeof Verdict>;
export type Summary = z.infer<typeof Summary>;
export type WeightedSummary = z.infer<typeof WeightedSummary>;
