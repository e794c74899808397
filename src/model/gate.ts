// Stored so SARIF and the Action's job summary name what `--fail-on` matched without judging again.
import { z } from 'zod';
import { Verdict } from './schema-base.js';

/** Without `tool`: a server's own findings. */
export const GateMatch = z.object({
  server: z.string(),
  tool: z.string().optional(),
  /** When `--fail-on` names it and no suppression accepted it. */
  verdict: Verdict.optional(),
  /** Unsuppressed, in report order. */
  rules: z.array(z.string()).optional(),
});

export const Gate = z.object({
  failOn: z.array(z.string()),
  /** Each tool with one is a SARIF result, dismissed when accepted. */
  verdicts: z.array(Verdict),
  /** With `drift`, what fails the gate. */
  matched: z.number().int().nonnegative(),
  /** The first LIMITS.gateMatches; `matched` counts them all. */
  matches: z.array(GateMatch),
  drift: z.boolean().optional(),
  /** Accepted by a suppression entry, so not counted. */
  accepted: z.number().int().nonnegative().optional(),
});

export type GateMatch = z.infer<typeof GateMatch>;
export type Gate = z.infer<typeof Gate>;
