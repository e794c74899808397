/** `idemscan probe-census [DIR]` (docs/PROBE.md): exit 1 when an outcome differs from `expect`, 3 when none ran. */
import { mismatchLine, serverHead, serverLine } from '../behaviour/behaviour-lines.js';
import { plural } from '../../model/verdicts.js';
import type { Shown } from '../../model/shown.js';
import { joinShown, msg, show } from '../../render/message.js';
import { runCensus, type CensusEvent, type CensusFacts } from '../behaviour/probe-census.js';
import { prepareCensus, type PreparedCensus } from '../behaviour/probe-census-prepare.js';
import { EXIT } from '../../shell/exit.js';
import type { ProbeCensusFlags } from './flags.js';
import * as say from '../../shell/say.js';
import { watchSignals } from '../../shell/signals.js';

export async function probeCensusCommand(dir: string, flags: ProbeCensusFlags): Promise<void> {
  if (flags.auto) return (await import('./auto-run.js')).autoCensusCommand(flags);
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
    msg`idemscan probe-census: will probe ${plural(n, 'server')} of ${show.path(dir)} (${names}), one at a time, calling the ${plural(prepared.calls, 'tool')} their plans name (each planned tool up to twice, with its observer, after its set-up calls); their effects are real, but confined to a fresh scratch directory per server under --sandbox (bubblewrap, loopback-only network)\n`,
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
