/**
 * The per-server answer's shape (model/advice.ts makes it): what a client may do with each of a
 * server's tools, grouped the way a client acts on them. Its own module so schema.ts can hold it
 * while advice.ts reads schema.ts's types.
 */
import { z } from 'zod';

/** A group of tools: how many, and the first few names (as many as ADVICE_NAMES). */
export const AdviceGroup = z.object({
  count: z.number().int().nonnegative(),
  tools: z.array(z.string()),
});

export const ServerAdvice = z.object({
  /**
   * The server at a glance: `retry-freely` (every tool is read-only), `retry-with-key` (the rest
   * have a key to send again), `retry-if-trusted` (some rely on `idempotentHint` alone on a server
   * not trusted), `mixed` (some tools may repeat their effect, others not), `ask-first` (every tool
   * may), `no-tools`.
   */
  kind: z.enum(['retry-freely', 'retry-with-key', 'retry-if-trusted', 'mixed', 'ask-first', 'no-tools']),
  /** Read-only tools: retry freely. */
  retry: AdviceGroup,
  /** Keyed and protocol-keyed tools: retry with the same key (`key`: the argument's JSONPath, or `idempotencyKey` with `protocol`). */
  withKey: z.object({
    count: z.number().int().nonnegative(),
    tools: z.array(z.object({ tool: z.string(), key: z.string(), protocol: z.boolean().optional() })),
    /** Over every keyed tool, not only those named: all of them protocol-keyed, or all sharing one key argument (its path). */
    allProtocol: z.boolean().optional(),
    sameKey: z.string().optional(),
  }),
  /** Only `idempotentHint`: retry if the server is trusted (it is, when the server's `trusted` is true). */
  ifTrusted: AdviceGroup,
  /** Unprotected tools that declare a write (some behaviour hint given): ask the user before a retry. */
  ask: AdviceGroup,
  /** Unprotected tools that declare nothing (no behaviour hint): the spec's defaults make them writes; ask too. */
  undeclared: AdviceGroup,
});

export type AdviceGroup = z.infer<typeof AdviceGroup>;
export type ServerAdvice = z.infer<typeof ServerAdvice>;
