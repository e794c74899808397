// No zod here: the SARIF and terminal writers load it.
import { AUTO_OBSERVER, probesOf, type ToolProbes } from './probe-cases.js';
import type { ProbeOutcome, ProbeSummary, ToolProbe } from './probe-schema.js';

type Counted = Exclude<keyof ProbeSummary, 'observers' | 'observerCalls'>;

/** One table for the summary and every reporter. */
export const PROBE_OUTCOMES = {
  'retry-safe': { field: 'retrySafe', mark: '✓', meaning: 'the observer did not change on the re-issue' },
  'reissue-refused': {
    field: 'reissueRefused',
    mark: '~',
    meaning:
      'the effect happened once and the re-issue answered an error: a retrying client is told a done call failed',
  },
  'repeated-effect': { field: 'repeatedEffect', mark: '✗', meaning: 'the re-issue repeated the effect' },
  inconclusive: { field: 'inconclusive', mark: '?', meaning: 'nothing observed could tell' },
  failed: { field: 'failed', mark: '!', meaning: 'a call of the experiment failed: nothing was learned' },
  'not-probed': { field: 'notProbed', mark: '-', meaning: 'not in the plan' },
} as const satisfies Record<ProbeOutcome, { field: Counted; mark: string; meaning: string }>;

export const PROBE_CONFLICTS = {
  rejected: 'the same key with other arguments was refused, as a key that deduplicates should be',
  accepted: 'the same key with other arguments was accepted: the server does not tie the key to its arguments',
} as const satisfies Record<NonNullable<ToolProbe['conflict']>, string>;

/** One count per experiment; a tool used only as an observer was called, so it is counted apart. */
export function countProbes(tools: readonly (ToolProbes & { name?: string })[]): ProbeSummary | undefined {
  if (!tools.some((t) => probesOf(t).length > 0)) return undefined;
  const out: ProbeSummary = {
    retrySafe: 0,
    reissueRefused: 0,
    repeatedEffect: 0,
    inconclusive: 0,
    failed: 0,
    notProbed: 0,
  };
  const calls = observerCalls(tools);
  let observers = 0;
  for (const t of tools) {
    for (const p of probesOf(t)) {
      if (p.outcome === 'not-probed' && t.name !== undefined && calls.has(t.name)) observers += 1;
      else {
        const field = PROBE_OUTCOMES[p.outcome].field;
        out[field] = (out[field] ?? 0) + 1;
      }
    }
  }
  if (observers > 0) {
    out.observers = observers;
    out.observerCalls = [...calls.values()].reduce((a, b) => a + b, 0);
  }
  return out;
}

/** An observer's calls are real calls too: its reason says so instead of "never called". */
export function noteObservers(tools: readonly (ToolProbes & { name: string })[]): void {
  const calls = observerCalls(tools);
  for (const t of tools) {
    const n = calls.get(t.name);
    if (t.probe?.outcome === 'not-probed' && n)
      t.probe = {
        ...t.probe,
        evidence: {
          ...t.probe.evidence,
          reason: `not in the plan itself: called ${n === 1 ? 'once' : `${n} times`} as an observer`,
        },
      };
  }
}

export function observerCalls(tools: readonly ToolProbes[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tools)
    for (const p of probesOf(t))
      for (const c of p.evidence.calls)
        if (c.step.startsWith('observe') && c.tool !== AUTO_OBSERVER) out.set(c.tool, (out.get(c.tool) ?? 0) + 1);
  return out;
}
