/**
 * `idemscan probe --plan PLAN.json -- COMMAND | URL` (docs/PROBE.md): the one command that calls
 * tools. It calls only what the plan names, says so on stderr before it connects, and shows each
 * outcome after the tool view; `--fail-on repeated-effect,inconclusive,failed` gates CI. The run is
 * app/probe-run.ts.
 */
import { probeMatchText, readProbePlan, runProbe, type ProbeFacts } from '../app/probe-run.js';
import { checkReportFiles } from '../app/write-reports.js';
import { plannedCalls } from '../model/probe-plan.js';
import type { ProbeOutcome } from '../model/probe-schema.js';
import { InputError } from '../model/input-error.js';
import type { Target } from '../targets/types.js';
import { probeTerminalLines } from '../render/probe-view.js';
import { joinShown, msg, show } from '../render/message.js';
import { auditTarget } from './audit-target.js';
import { EXIT } from './exit.js';
import * as say from './say.js';
import type { ProbeFlags } from './flags.js';
import { splitList } from './options.js';
import { printResult, reportFileOf } from './print-scan.js';
import { watchSignals } from './signals.js';
import { streamOf } from '../model/report-head.js';

const GATES = ['repeated-effect', 'inconclusive', 'failed'] as const satisfies readonly ProbeOutcome[];
type Gate = (typeof GATES)[number];

function parseGates(list: string | undefined): Set<Gate> {
  if (list === undefined) return new Set();
  const words = splitList(list);
  for (const w of words)
    if (!(GATES as readonly string[]).includes(w))
      throw new InputError(msg`--fail-on: unknown "${show.name(w)}" (probe takes ${GATES.join(', ')})`);
  if (words.length === 0) throw new InputError(`--fail-on: expected a comma-separated list of ${GATES.join(', ')}`);
  return new Set(words as Gate[]);
}

export async function probeCommand(words: string[], flags: ProbeFlags): Promise<void> {
  // Checked before anything is read or started: without a plan nothing may be called.
  if (flags.plan === undefined)
    throw new InputError(
      'probe calls tools, so it needs --plan PLAN.json naming them (docs/PROBE.md); nothing was called',
    );
  const gates: ReadonlySet<ProbeOutcome> = parseGates(flags.failOn);
  const target = auditTarget(words, flags);
  const plan = await readProbePlan(flags.plan);
  const files = { out: flags.out, formats: flags.format, json: flags.json };
  await checkReportFiles(files);
  announce(plannedCalls(plan), target);
  const interrupt = watchSignals();
  const options = {
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    sandbox: flags.sandbox,
    trust: flags.trust,
    cacheDir: flags.cacheDir,
    signal: interrupt.signal,
  };
  const settings = { options, files, nameFromServerInfo: flags.name === undefined, gates, interrupt };
  const facts = await runProbe(target, plan, settings, { print: (t) => void process.stdout.write(t), say });
  const { report } = facts;
  const jsonToStdout = flags.json === '-';
  await printResult(streamOf(report), 'tools', { quiet: flags.quiet, jsonToStdout, reportFile: reportFileOf(flags) });
  // The outcomes are output (stdout; stderr when the JSON report goes to stdout); probe-view escapes what it quotes.
  if (!flags.quiet) (jsonToStdout ? process.stderr : process.stdout).write(probeTerminalLines(report).join(''));
  // Read again: a signal that came while the outcomes were printed still decides the exit.
  process.exitCode = exitCode({ ...facts, interrupted: interrupt.interrupted });
}

/** Loud, whatever -q says: these calls change the server's state. */
function announce({ tools, observers }: { tools: string[]; observers: string[] }, target: Target): void {
  const list = (names: string[]) =>
    joinShown(
      names.map((n) => msg`${show.name(n)}`),
      ', ',
    );
  const watched = observers.length
    ? msg`, and the observer${observers.length === 1 ? '' : 's'} ${list(observers)}`
    : msg``;
  say.lines(
    msg`idemscan probe: will call ${list(tools)} on ${show.name(target.name)}, each up to twice (and once more with conflictArguments)${watched}; their effects are real: use a test backend\n`,
    true,
  );
}

function exitCode(facts: ProbeFacts): number {
  let code: number = EXIT.ok;
  if (facts.interrupted) code = EXIT.interrupted;
  else if (facts.allFailed) code = EXIT.allFailed;
  else if (facts.matched.length > 0) {
    say.tell(probeMatchText(facts.matched));
    code = EXIT.failOn;
  }
  return facts.outputsFailed && code !== EXIT.interrupted ? EXIT.outputFailed : code;
}
