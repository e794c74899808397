/**
 * The verdicts' ids, safest first, as plain data: the zod enum of the report (schema-base.ts) is made
 * of this list, and `idemscan/retry` (src/retry.ts), which loads no zod, types its decisions with it.
 */
export const VERDICT_IDS = ['read-only', 'protocol-keyed', 'keyed', 'idempotent', 'unprotected'] as const;

export type Verdict = (typeof VERDICT_IDS)[number];
