/** `idemscan probe --plan PLAN.json -- COMMAND | URL` (docs/PROBE.md): the one command that calls tools. */
import { probeMatchText, runProbe, type ProbeFacts } from '../app/probe/probe-run.js';
import { probeInputs, type ProbeInputs } from '../app/probe/probe-inputs.js';
import { probeTerminalLines } from '../render/probe-view.js';
import { joinShown, msg, show } from '../render/message.js';
import { EXIT } from '../shell/exit.js';
import { plural } from '../model/verdicts.js';
import * as say from '../shell/say.js';
import type { ProbeFlags } from './flags.js';
import { printResult, reportFileOf } from './print-scan.js';
import { watchSignals } from '../shell/signals.js';
import { streamOf } from '../model/report-head.js';
import type { Report } from '../model/schema.js';
import { sandboxLines } from '../render/sandbox-lines.js';
import { outputWidth } from '../render/width.js';

export async function probeCommand(words: string[], flags: ProbeFlags): Promise<void> {
  const { target, plan, calls, settings } = await probeInputs(words, flags);
  announce(calls);
  const interrupt = watchSignals();
  const onAutoStart = (tools: readonly string[]) =>
    say.lines(
      msg`idemscan probe: calling each of ${plural(tools.length, 'tool')} of ${show.path(calls.server)} twice, inside the sandbox, with arguments made from its schema\n`,
      true,
    );
  const options = { ...settings.options, signal: interrupt.signal, onAutoStart };
  const run = { ...settings, options, interrupt };
  const facts = await runProbe(target, plan, run, { print: (t) => void process.stdout.write(t), say });
  const { report } = facts;
  const jsonToStdout = flags.json === '-';
  await printResult(streamOf(report), 'tools', { quiet: flags.quiet, jsonToStdout, reportFile: reportFileOf(flags) });
  // The outcomes are output (stdout; stderr when the JSON report goes to stdout); probe-view escapes what it quotes.
  const stream = jsonToStdout ? process.stderr : process.stdout;
  if (!flags.quiet) stream.write(probeTerminalLines(report, outputWidth(stream)).join(''));
  sayContainment(report);
  // Read again: a signal that came while the outcomes were printed still decides the exit.
  process.exitCode = exitCode({ ...facts, interrupted: interrupt.interrupted });
}

/** Which sandbox the server ran in and what it could write, as scan and audit say it after their table. */
function sayContainment(report: Report): void {
  const counts = new Map<string, number>();
  for (const s of report.servers)
    if (s.target.sandbox) counts.set(s.target.sandbox, (counts.get(s.target.sandbox) ?? 0) + 1);
  const { sandbox, writable } = report.options;
  for (const line of sandboxLines(counts, sandbox, process.getuid?.() === 0, writable)) say.note(line);
}

/** Loud, whatever -q says: these calls change the server's state. */
function announce({ tools, observers, setup, conflicts, server, auto }: ProbeInputs['calls']): void {
  if (auto)
    say.lines(
      msg`idemscan probe: will call every tool of ${show.path(server)}${tools.length ? ' the plan leaves out' : ''} twice, each on a fresh server inside the sandbox, with arguments made from its schema; their effects are real, kept to a scratch space that is then removed\n`,
      true,
    );
  if (tools.length === 0) return;
  const list = (names: string[]) =>
    joinShown(
      names.map((n) => msg`${show.name(n)}`),
      ', ',
    );
  const watched = observers.length
    ? msg`, and the observer${observers.length === 1 ? '' : 's'} ${list(observers)}`
    : msg``;
  const first = setup.length ? msg`, after the setup calls ${list(setup)} (once each)` : msg``;
  say.lines(
    msg`idemscan probe: will call ${list(tools)} on ${show.path(server)}, each up to twice${conflicts ? ' (and once more with conflictArguments)' : ''}${watched}${first}; their effects are real: use a test backend\n`,
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
