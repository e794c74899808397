/**
 * The probe's outcomes as data (no zod: the SARIF and terminal writers load it, and audit loads
 * them): the summary field, the mark and the words of each, and their counting.
 */
import { probesOf, type ToolProbes } from './probe-cases.js';
import type { ProbeOutcome, ProbeSummary } from './probe-schema.js';

/** The summary field of each outcome, and its words: one table for the summary and every reporter. */
export const PROBE_OUTCOMES = {
  'retry-safe': { field: 'retrySafe', mark: '✓', meaning: 'the observer did not change on the re-issue' },
  'repeated-effect': { field: 'repeatedEffect', mark: '✗', meaning: 'the re-issue repeated the effect' },
  inconclusive: { field: 'inconclusive', mark: '?', meaning: 'nothing observed could tell' },
  failed: { field: 'failed', mark: '!', meaning: 'a call of the experiment failed' },
  'not-probed': { field: 'notProbed', mark: '-', meaning: 'not in the plan' },
} as const satisfies Record<ProbeOutcome, { field: keyof ProbeSummary; mark: string; meaning: string }>;

/** One count per experiment: a tool planned as cases counts once per case. */
export function countProbes(tools: readonly ToolProbes[]): ProbeSummary | undefined {
  if (!tools.some((t) => probesOf(t).length > 0)) return undefined;
  const out: ProbeSummary = { retrySafe: 0, repeatedEffect: 0, inconclusive: 0, failed: 0, notProbed: 0 };
  for (const t of tools) for (const p of probesOf(t)) out[PROBE_OUTCOMES[p.outcome].field] += 1;
  return out;
}
