/** Safest first, as plain data: `idemscan/retry` loads no zod. */
export const VERDICT_IDS = ['read-only', 'protocol-keyed', 'keyed', 'idempotent', 'unprotected'] as const;

export type Verdict = (typeof VERDICT_IDS)[number];
