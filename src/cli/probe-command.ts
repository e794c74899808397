/**
 * `idemscan probe --plan PLAN.json -- COMMAND | URL` (docs/PROBE.md): the one command that calls
 * tools. It calls only what the plan names, says so on stderr before it connects, and shows each
 * outcome after the tool view; `--fail-on repeated-effect,inconclusive,failed` gates CI.
 */
import path from 'node:path';
import { REPORTERS } from '../render/index.js';
import { probeTerminalLines } from '../render/probe-view.js';
import type { ProbeOutcome } from '../model/probe-schema.js';
import type { Report } from '../model/schema.js';
import { InputError } from '../model/input-error.js';
import { joinShown, msg, show } from '../render/message.js';
import { auditTarget } from './audit-target.js';
import { EXIT } from './exit.js';
import { lines, tell, warn } from './say.js';
import type { ProbeFlags } from './flags.js';
import { splitList } from './options.js';
import { nameFromServerInfo, printResult } from './print-scan.js';
import { watchSignals } from './signals.js';
import { checkOutputs, writeOutputs } from './write-reports.js';
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
  const gates = parseGates(flags.failOn);
  const target = auditTarget(words, flags);
  const [{ plannedCalls }, { probe, readPlan }] = await Promise.all([
    import('../model/probe-plan.js'),
    import('../probe.js'),
  ]);
  const plan = await readPlan(flags.plan);
  await checkOutputs(flags, flags.format);
  const { tools, observers } = plannedCalls(plan);
  const list = (names: string[]) =>
    joinShown(
      names.map((n) => msg`${show.name(n)}`),
      ', ',
    );
  const watched = observers.length
    ? msg`, and the observer${observers.length === 1 ? '' : 's'} ${list(observers)}`
    : msg``;
  // Loud, whatever -q says: these calls change the server's state.
  lines(
    msg`idemscan probe: will call ${list(tools)} on ${show.name(target.name)}, each up to twice (and once more with conflictArguments)${watched}; their effects are real: use a test backend\n`,
    true,
  );
  const interrupt = watchSignals();
  const result = await probe(target, plan, {
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    sandbox: flags.sandbox,
    trust: flags.trust,
    cacheDir: flags.cacheDir,
    signal: interrupt.signal,
  });
  for (const w of result.warnings) warn(msg`${w}`);
  let report = await interrupt.settle(result.report, result.report.servers.length, 1);
  if (flags.name === undefined) report = nameFromServerInfo(report);
  const written = await writeOutputs(streamOf(report), flags, flags.format, undefined, 'probe');
  const reportFile =
    flags.json && flags.json !== '-'
      ? flags.json
      : flags.format.includes('json')
        ? path.join(flags.out, REPORTERS.json!.fileName!)
        : undefined;
  await printResult(streamOf(report), 'tools', { quiet: flags.quiet, jsonToStdout: flags.json === '-', reportFile });
  // The outcomes are output (stdout; stderr when the JSON report goes to stdout); probe-view escapes what it quotes.
  if (!flags.quiet) (flags.json === '-' ? process.stderr : process.stdout).write(probeTerminalLines(report).join(''));
  const code = interrupt.interrupted ? EXIT.interrupted : exitCode(report, gates);
  process.exitCode = written || code === EXIT.interrupted ? code : EXIT.outputFailed;
}

function exitCode(report: Report, gates: Set<Gate>): number {
  if (report.summary.serversOk === 0) return EXIT.allFailed;
  const matched = report.servers.flatMap((s) =>
    s.tools
      .filter((t) => t.probe && gates.has(t.probe.outcome as Gate))
      .map((t) => msg`${show.name(t.name)} (${t.probe!.outcome})`),
  );
  if (matched.length === 0) return EXIT.ok;
  tell(msg`--fail-on matched: ${joinShown(matched, ', ')}`);
  return EXIT.failOn;
}
