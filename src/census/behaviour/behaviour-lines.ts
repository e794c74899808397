/** `idemscan probe-census` lines: one per finished server, one per experiment that differs from the library. */
import { experimentName } from '../../model/probe-cases.js';
import { ProbeOutcome } from '../../model/probe-schema.js';
import type { Shown } from '../../model/shown.js';
import { plural } from '../../model/verdicts.js';
import { msg, show } from '../../render/message.js';
import type { BehaviourRow, BehaviourServer } from './behaviour.js';

export const serverHead = (s: BehaviourServer): Shown =>
  s.version === undefined ? msg`${show.name(s.name)}` : msg`${show.name(s.name)} ${show.name(s.version)}`;

const VERBS = { agrees: 'agree', understates: 'understate', overstates: 'overstate', unknown: 'unknown' } as const;

/** `memory 2026.8.31: 6 experiments: 4 retry-safe, 2 repeated-effect; 3 agree, 3 understate; 31 requests, 0.4 s`. */
export function serverLine(s: BehaviourServer, rows: readonly BehaviourRow[]): Shown {
  const count = <K extends string>(keys: readonly K[], of: (r: BehaviourRow) => K, word: (k: K) => string) =>
    keys
      .map((k) => [k, rows.filter((r) => of(r) === k).length] as const)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${word(k)}`)
      .join(', ');
  const outcomes = count(
    ProbeOutcome.options,
    (r) => r.outcome,
    (k) => k,
  );
  const agreements = count(
    Object.keys(VERBS) as (keyof typeof VERBS)[],
    (r) => r.agreement,
    (k) => VERBS[k],
  );
  const counts = rows.length ? `: ${outcomes}; ${agreements}` : '';
  const cost = `${s.requests} requests, ${(s.durationMs / 1000).toFixed(1)} s`;
  return msg`${serverHead(s)}: ${plural(s.experiments, 'experiment')}${counts}; ${cost}`;
}

/** `memory create_relations: observed repeated-effect, the library expects retry-safe`. */
export const mismatchLine = (r: BehaviourRow): Shown =>
  msg`${show.name(r.server)} ${show.name(experimentName(r.tool, r))}: observed ${r.outcome}, the library expects ${r.expected ?? ''}`;
