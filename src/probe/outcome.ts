/**
 * The outcome of one lost-response experiment (docs/PROBE.md), from what its calls answered.
 * Pure: run.ts sends the calls, this reads them.
 */
import type { ProbeExperiment, ProbeOutcome, RanExperiment, SentCall, ToolProbe } from '../model/probe-schema.js';

export interface Judged {
  outcome: ProbeOutcome;
  reason: string;
  conflict?: 'rejected' | 'accepted';
}

const STEPS_THAT_MUST_SUCCEED = new Set([
  'observe-before',
  'call',
  'observe-after-call',
  'reissue',
  'observe-after-reissue',
]);

export function judge(calls: readonly SentCall[], observed: boolean): Judged {
  const conflictCall = calls.find((c) => c.step === 'conflict');
  const conflict =
    conflictCall && conflictCall.status !== 'no-answer'
      ? conflictCall.status === 'ok'
        ? ('accepted' as const)
        : ('rejected' as const)
      : undefined;
  const withConflict = (j: Omit<Judged, 'conflict'>): Judged => (conflict ? { ...j, conflict } : j);
  // An observer's error answer is an observation like any other (compared by its text): only silence breaks it.
  const broken = calls.find(
    (c) =>
      STEPS_THAT_MUST_SUCCEED.has(c.step) &&
      (c.step.startsWith('observe') ? c.status === 'no-answer' : c.status !== 'ok'),
  );
  if (broken)
    return withConflict({
      outcome: 'failed',
      reason: `${broken.step} (${broken.tool}) ${broken.why ?? broken.status}`,
    });
  const first = calls.find((c) => c.step === 'call');
  const again = calls.find((c) => c.step === 'reissue');
  if (!first || !again)
    return withConflict({ outcome: 'failed', reason: 'the experiment did not run to the re-issue' });
  if (!observed) {
    const same = first.compared === again.compared;
    return withConflict({
      outcome: 'inconclusive',
      reason: `no observer in the plan; the two answers were ${same ? 'identical' : 'different'}, which tells neither way (a replayed answer and an overwrite look alike; an answer may carry a timestamp)`,
    });
  }
  const [before, afterCall, afterReissue] = ['observe-before', 'observe-after-call', 'observe-after-reissue'].map(
    (s) => calls.find((c) => c.step === s)?.compared,
  );
  if (afterReissue !== afterCall)
    return withConflict({
      outcome: 'repeated-effect',
      reason: 'the observer changed again on the re-issue: the effect happened twice',
    });
  if (afterCall === before) {
    return withConflict({
      outcome: 'inconclusive',
      reason: 'the observer did not change on the first call either: it does not show this effect',
    });
  }
  return withConflict({
    outcome: 'retry-safe',
    reason: 'the observer changed on the call and not on the re-issue (deduplicated, or a true overwrite)',
  });
}

/** The report's `tools[].probe` of one experiment, from what the connector sent and got. */
export function toolProbe(experiment: ProbeExperiment, ran: RanExperiment): ToolProbe {
  const which = experiment.case === undefined ? {} : { case: experiment.case };
  if (ran.notRun !== undefined)
    return {
      ...which,
      outcome: 'failed',
      key: null,
      evidence: { reason: `not run: ${ran.notRun}`, calls: [], requests: 0, durationMs: 0 },
    };
  const judged = judge(ran.calls, !!experiment.observe);
  return {
    ...which,
    outcome: judged.outcome,
    key: experiment.keyLocations.length ? experiment.keyLocations.join(', ') : null,
    ...(judged.conflict ? { conflict: judged.conflict } : {}),
    evidence: {
      reason: judged.reason,
      ...(experiment.observe ? { observer: experiment.observe.tool } : {}),
      calls: ran.calls.map(({ compared: _c, why: _w, ended: _e, ...kept }) => kept),
      requests: ran.calls.length,
      durationMs: ran.durationMs,
    },
  };
}
