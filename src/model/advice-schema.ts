// Apart from advice.ts so schema.ts can hold it while advice.ts reads schema.ts's types.
import { z } from 'zod';

/** `tools`: the first ADVICE_NAMES names. */
export const AdviceGroup = z.object({
  count: z.number().int().nonnegative(),
  tools: z.array(z.string()),
});

export const ServerAdvice = z.object({
  /** `mixed`: some tools may repeat their effect, others not; `ask-first`: every tool may. */
  kind: z.enum(['retry-freely', 'retry-with-key', 'retry-if-trusted', 'mixed', 'ask-first', 'no-tools']),
  /** Read-only. */
  retry: AdviceGroup,
  /** `key`: the argument's JSONPath, or `idempotencyKey` with `protocol`. */
  withKey: z.object({
    count: z.number().int().nonnegative(),
    tools: z.array(z.object({ tool: z.string(), key: z.string(), protocol: z.boolean().optional() })),
    /** Over every keyed tool, not only those named. */
    allProtocol: z.boolean().optional(),
    sameKey: z.string().optional(),
  }),
  /** Only `idempotentHint`. */
  ifTrusted: AdviceGroup,
  /** Unprotected with some hint given. */
  ask: AdviceGroup,
  /** Unprotected with no hint: writes by the spec's defaults. */
  undeclared: AdviceGroup,
});

export type AdviceGroup = z.infer<typeof AdviceGroup>;
export type ServerAdvice = z.infer<typeof ServerAdvice>;
