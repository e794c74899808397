/**
 * The words of the report that the diff document (diff.ts) and the rule catalogue are made of
 * (severity, verdict, key confidence, the summary). The report holds a diff (`comparedWith`), so
 * the order is: these, then diff.ts, then schema.ts, which re-exports them; import them from there.
 */
import { z } from 'zod';
import { ProbeSummary } from './probe-schema.js';
import { VERDICT_IDS } from './verdict-ids.js';

export const Severity = z.enum(['error', 'warning', 'info']);
export const Verdict = z.enum(VERDICT_IDS);
export const Confidence = z.enum(['strong', 'weak']);

/** Servers with at least one tool of a verdict, weighted by their monthly downloads. */
export const WeightedShare = z.object({
  /** Scanned-ok servers with a `downloads` figure and at least one tool of this verdict. */
  servers: z.number().int(),
  /** Their monthly downloads together. */
  downloads: z.number().int(),
  /** downloads / the weighted total (0 to 1, rounded to 4 decimals; 0 when the total is 0). */
  share: z.number(),
});

/**
 * Figures weighted by use (model/summary.ts): only scanned-ok servers whose target records
 * `downloads` (monthly npm downloads when the list was made) count. A server counts once per
 * verdict it has at least one tool of, so the shares of the verdicts add up to more than 1.
 */
export const WeightedSummary = z.object({
  /** Scanned-ok servers with a downloads figure. */
  servers: z.number().int(),
  /** Their monthly downloads together: the denominator of every share. */
  downloads: z.number().int(),
  /**
   * Per verdict, the servers with at least one tool of it. `unprotected` is "at least one
   * unprotected (not read-only, no key, no idempotent hint) tool".
   */
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
  /** Tools that carry at least one of the four behaviour hints. */
  annotated: z.number().int(),
  protocolKeyed: z.number().int(),
  keyed: z.number().int(),
  idempotent: z.number().int(),
  unprotected: z.number().int(),
  /** Of the unprotected tools, those that declare no behaviour hint at all (the spec's defaults make them writes); absent in reports before it. */
  unprotectedUndeclared: z.number().int().optional(),
  /** Download-weighted figures; present only when some scanned-ok server has a `downloads` figure. */
  weighted: WeightedSummary.optional(),
  /** `idemscan probe` only: tools by experiment outcome. */
  probe: ProbeSummary.optional(),
});

export type Severity = z.infer<typeof Severity>;
export type Verdict = z.infer<typeof Verdict>;
export type Summary = z.infer<typeof Summary>;
export type WeightedSummary = z.infer<typeof WeightedSummary>;
