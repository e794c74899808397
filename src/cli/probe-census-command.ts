/**
 * `idemscan probe-census [DIR]` (docs/PROBE.md, "The plan library and `probe-census`"): says what
 * it will call before anything starts, runs census/behaviour/probe-census.ts, prints a line per
 * server as it finishes and a line per experiment whose outcome is not the library's `expect`, then
 * the files.
 * Exit 1 when one differs or a server failed, 3 when none could be probed, 130 when interrupted.
 */
import type { BehaviourRow, BehaviourServer } from '../census/behaviour/behaviour.js';
import { experimentName } from '../model/probe-cases.js';
import { ProbeOutcome } from '../model/probe-schema.js';
import type { Shown } from '../model/shown.js';
import { joinShown, msg, show } from '../render/message.js';
import { runCensus, type CensusEvent, type CensusFacts } from '../census/behaviour/probe-census.js';
import { prepareCensus, type PreparedCensus } from '../census/behaviour/probe-census-prepare.js';
import { EXIT } from './exit.js';
import type { ProbeCensusFlags } from './flags.js';
import * as say from './say.js';
import { watchSignals } from './signals.js';

export async function probeCensusCommand(dir: string, flags: ProbeCensusFlags): Promise<void> {
  const prepared = await prepareCensus({ dir, only: flags.only, out: flags.out, cacheDir: flags.cacheDir });
  announce(prepared, dir);
  const interrupt = watchSignals();
  const settings = {
    dir,
    out: prepared.out,
    cacheDir: flags.cacheDir,
    install: flags.install,
    timeoutMs: flags.timeout,
    keepScratch: !!flags.keepScratch,
    signal: interrupt.signal,
  };
  const facts = await runCensus(prepared, settings, { say, onEvent: (e) => onEvent(e, !!flags.quiet) });
  for (const file of facts.files) say.note(msg`wrote ${show.path(file)}`);
  process.exitCode = exitCode({ ...facts, interrupted: interrupt.interrupted });
}

/** Loud, whatever -q says: the plans' calls change state, if only in scratch directories. */
function announce(prepared: PreparedCensus, dir: string): void {
  const names = joinShown(
    prepared.servers.map((s) => msg`${show.name(s.entry.name)}`),
    ', ',
  );
  const n = prepared.servers.length;
  say.lines(
    msg`idemscan probe-census: will probe ${n} server${n === 1 ? '' : 's'} of ${show.path(dir)} (${names}), one at a time, calling the ${prepared.calls} tool${prepared.calls === 1 ? '' : 's'} their plans name (each planned tool up to twice, with its observer, after its set-up calls); their effects are real, but confined to a fresh scratch directory per server under --sandbox (bubblewrap, loopback-only network)\n`,
    true,
  );
}

function onEvent(e: CensusEvent, quiet: boolean): void {
  if (e.type === 'kept') return say.note(msg`kept the scratch directory ${show.path(e.scratch)}`);
  if (e.type === 'install') {
    const ev = e.event;
    // A package refused or not installed is said once, as its server's error (below).
    if (ev.type === 'warning') say.warn(msg`${ev.message}`);
    // A package already in the cache is done in 0 ms: only those installed now are worth a line.
    if (ev.type === 'done' && ev.result.ok && ev.result.ms > 0)
      say.note(msg`installed ${show.path(ev.result.spec)} (${(ev.result.ms / 1000).toFixed(1)} s)`);
    return;
  }
  for (const w of e.warnings) say.warn(msg`${show.name(e.server.name)}: ${w}`);
  if (e.server.error !== undefined) say.tell(msg`${serverHead(e.server)}: ${firstLines(e.server.error)}`);
  else if (!quiet) process.stdout.write(serverLine(e.server, e.rows).text + '\n');
  for (const r of e.rows) if (r.expected !== undefined && r.expected !== r.outcome) say.tell(mismatchLine(r));
}

/** A multi-line error (npm's, a server's) as its first lines, each escaped, indented under the first. */
function firstLines(text: string, max = 3): Shown {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const shown = lines.slice(0, max).map((l) => msg`${show.message(l)}`);
  const more = lines.length > max ? [msg`(${lines.length - max} more lines)`] : [];
  return joinShown([...shown, ...more], '\n    ');
}

const serverHead = (s: BehaviourServer): Shown =>
  s.version === undefined ? msg`${show.name(s.name)}` : msg`${show.name(s.name)} ${show.name(s.version)}`;

const VERBS = { agrees: 'agree', understates: 'understate', overstates: 'overstate', unknown: 'unknown' } as const;

/** `memory 2026.8.31: 6 experiments: 4 retry-safe, 2 repeated-effect; 3 agree, 3 understate; 31 requests, 0.4 s`. */
function serverLine(s: BehaviourServer, rows: readonly BehaviourRow[]): Shown {
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
  return msg`${serverHead(s)}: ${s.experiments} experiment${s.experiments === 1 ? '' : 's'}${counts}; ${cost}`;
}

/** `memory create_relations: observed repeated-effect, the library expects retry-safe`. */
const mismatchLine = (r: BehaviourRow): Shown =>
  msg`${show.name(r.server)} ${show.name(experimentName(r.tool, r))}: observed ${r.outcome}, the library expects ${r.expected ?? ''}`;

function exitCode(facts: CensusFacts): number {
  const { servers, rows } = facts.table;
  if (facts.interrupted) return EXIT.interrupted;
  if (servers.length > 0 && servers.every((s) => s.error !== undefined)) {
    say.tell(msg`no server of the library could be probed`);
    return EXIT.allFailed;
  }
  const differs = rows.some((r) => r.expected !== undefined && r.expected !== r.outcome);
  if (differs || servers.some((s) => s.error !== undefined)) return EXIT.failOn;
  return facts.outputsFailed ? EXIT.outputFailed : EXIT.ok;
}
