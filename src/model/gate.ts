/**
 * The report's `gate`: what `--fail-on` matched, as the scan decided it (app/scan/fail-on.ts), so that
 * SARIF and the Action's job summary name the tools it matched without judging them again.
 */
import { z } from 'zod';
import { Verdict } from './schema-base.js';

/** A tool (or, without `tool`, a server's own findings) that `--fail-on` matched. */
export const GateMatch = z.object({
  server: z.string(),
  tool: z.string().optional(),
  /** The tool's verdict, when `--fail-on` names it and no suppression accepted it. */
  verdict: Verdict.optional(),
  /** The rules of its findings that matched (a severity, a rule id, a profile), unsuppressed, in report order. */
  rules: z.array(z.string()).optional(),
});

export const Gate = z.object({
  /** `--fail-on`'s words, as parsed (a severity, rule ids, verdicts, `drift`, profile ids). */
  failOn: z.array(z.string()),
  /** The verdicts among them: every tool with one is a SARIF result (`verdict/<verdict>`), dismissed when accepted. */
  verdicts: z.array(Verdict),
  /** How many tools and servers matched; with `drift`, what fails the gate (exit 1, unless no target was scanned). */
  matched: z.number().int().nonnegative(),
  /** The first of them (LIMITS.gateMatches), in report order; `matched` counts them all. */
  matches: z.array(GateMatch),
  /** `--fail-on drift`, and the scan drifted from its `--baseline` (report.drift). */
  drift: z.boolean().optional(),
  /** Tools whose matching verdict a suppression entry accepted: not counted (ToolReport.accepted). */
  accepted: z.number().int().nonnegative().optional(),
});

export type GateMatch = z.infer<typeof GateMatch>;
export type Gate = z.infer<typeof Gate>;
