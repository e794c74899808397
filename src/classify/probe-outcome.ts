/**
 * The outcome of one lost-response experiment (docs/PROBE.md), from what its calls answered.
 * Pure: the connector sends the calls (connect/probe-run.ts), this reads them.
 */
import type { ProbeCall, ProbeOutcome } from '../report/probe-schema.js';

/** A call as sent, with what the observer comparison needs: its answer in a canonical form. */
export interface SentCall extends ProbeCall {
  /** `content` and `structuredContent` of the result as JSON (never `_meta`: a server may stamp it). */
  compared?: string;
  /** For a failure: what went wrong, in words. */
  why?: string;
  /** The connection is gone (an exit, a closed stream): later experiments cannot run. */
  ended?: string;
}

export interface Judged {
  outcome: ProbeOutcome;
  reason: string;
  conflict?: 'rejected' | 'accepted';
}

const STEPS_THAT_MUST_SUCCEED = new Set(['observe-before', 'call', 'observe-after-call', 'reissue', 'observe-after-reissue']);

export function judge(calls: readonly SentCall[], observed: boolean): Judged {
  const conflictCall = calls.find((c) => c.step === 'conflict');
  const conflict = conflictCall && conflictCall.status !== 'no-answer' ? (conflictCall.status === 'ok' ? 'accepted' as const : 'rejected' as const) : undefined;
  const withConflict = (j: Omit<Judged, 'conflict'>): Judged => (conflict ? { ...j, conflict } : j);
  const broken = calls.find((c) => STEPS_THAT_MUST_SUCCEED.has(c.step) && c.status !== 'ok');
  if (broken) return withConflict({ outcome: 'failed', reason: `${broken.step} (${broken.tool}) ${broken.why ?? broken.status}` });
  const first = calls.find((c) => c.step === 'call');
  const again = calls.find((c) => c.step === 'reissue');
  if (!first || !again) return withConflict({ outcome: 'failed', reason: 'the experiment did not run to the re-issue' });
  if (!observed) {
    const same = first.compared === again.compared;
    return withConflict({
      outcome: 'inconclusive',
      reason: `no observer in the plan; the two answers were ${same ? 'identical' : 'different'}, which tells neither way (a replayed answer and an overwrite look alike; an answer may carry a timestamp)`,
    });
  }
  const [before, afterCall, afterReissue] = ['observe-before', 'observe-after-call', 'observe-after-reissue'].map((s) => calls.find((c) => c.step === s)?.compared);
  if (afterReissue !== afterCall) return withConflict({ outcome: 'repeated-effect', reason: 'the observer changed again on the re-issue: the effect happened twice' });
  if (afterCall === before) {
    return withConflict({ outcome: 'inconclusive', reason: 'the observer did not change on the first call either: it does not show this effect' });
  }
  return withConflict({ outcome: 'retry-safe', reason: 'the observer changed on the call and not on the re-issue (deduplicated, or a true overwrite)' });
}
