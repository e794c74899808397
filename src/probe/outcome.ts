// Pure: run.ts sends the calls, this reads them (docs/PROBE.md).
import type { ProbeExperiment, ProbeOutcome, RanExperiment, SentCall, ToolProbe } from '../model/probe-schema.js';

export interface Judged {
  outcome: ProbeOutcome;
  reason: string;
  conflict?: 'rejected' | 'accepted';
}

type Verdict = Omit<Judged, 'conflict'>;

/** The call itself must also answer ok. */
const STEPS_THAT_MUST_ANSWER = new Set(['observe-before', 'observe-after-call', 'reissue', 'observe-after-reissue']);

const CALLED_TWICE = 'the tool was called twice (the call and the re-issue), so any effect it has ran twice';

export function judge(calls: readonly SentCall[], observed: boolean): Judged {
  const conflictCall = calls.find((c) => c.step === 'conflict');
  const conflict =
    conflictCall && conflictCall.status !== 'no-answer'
      ? conflictCall.status === 'ok'
        ? ('accepted' as const)
        : ('rejected' as const)
      : undefined;
  const verdict = judgeCalls(calls, observed);
  return conflict ? { ...verdict, conflict } : verdict;
}

function judgeCalls(calls: readonly SentCall[], observed: boolean): Verdict {
  // An observer's error answer is an observation, and a refused re-issue is judged below.
  const broken = calls.find((c) =>
    c.step === 'call' ? c.status !== 'ok' : STEPS_THAT_MUST_ANSWER.has(c.step) && c.status === 'no-answer',
  );
  if (broken) return { outcome: 'failed', reason: `${broken.step} (${broken.tool}) ${broken.why ?? broken.status}` };
  const first = calls.find((c) => c.step === 'call');
  const again = calls.find((c) => c.step === 'reissue');
  if (!first || !again) return { outcome: 'failed', reason: 'the experiment did not run to the re-issue' };
  const refused = again.status !== 'ok' ? `the re-issue ${again.why ?? again.status}` : undefined;
  if (!observed) return unobserved(first, again, refused);
  const [before, afterCall, afterReissue] = ['observe-before', 'observe-after-call', 'observe-after-reissue'].map(
    (s) => calls.find((c) => c.step === s)?.compared,
  );
  if (afterReissue === undefined)
    return { outcome: 'failed', reason: 'the observer was not called after the re-issue' };
  if (afterReissue !== afterCall)
    return {
      outcome: 'repeated-effect',
      reason: `the observer changed again on the re-issue${refused ? `, though ${refused}` : ''}: the effect happened twice`,
    };
  if (afterCall === before) {
    const why = refused ? `; ${refused}` : `; ${CALLED_TWICE}`;
    return {
      outcome: 'inconclusive',
      reason: `the observer did not change on the first call either: it does not show this effect${why}`,
    };
  }
  if (refused)
    return {
      outcome: 'reissue-refused',
      reason: `the observer changed on the call and not again, and ${refused}: the effect happened once, but a retrying client is told the call failed`,
    };
  return {
    outcome: 'retry-safe',
    reason: 'the observer changed on the call and not on the re-issue (deduplicated, or a true overwrite)',
  };
}

/** The answers alone cannot tell an effect that repeated from one that did not. */
function unobserved(first: SentCall, again: SentCall, refused: string | undefined): Verdict {
  if (refused)
    return {
      outcome: 'inconclusive',
      reason: `no observer in the plan; ${refused}, and without an observer that cannot tell a refused repeat from a failed one`,
    };
  const same = first.compared === again.compared;
  return {
    outcome: 'inconclusive',
    reason: `no observer in the plan; the two answers were ${same ? 'identical' : 'different'}, which tells neither way (a replayed answer and an overwrite look alike; an answer may carry a timestamp); ${CALLED_TWICE}`,
  };
}

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
