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
import { safeText } from '../render/terminal.js';
import { auditTarget } from './audit-target.js';
import { EXIT, UsageError } from './exit.js';
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
      throw new UsageError(`--fail-on: unknown "${safeText(w, 80)}" (probe takes ${GATES.join(', ')})`);
  if (words.length === 0) throw new UsageError(`--fail-on: expected a comma-separated list of ${GATES.join(', ')}`);
  return new Set(words as Gate[]);
}

export async function probeCommand(words: string[], flags: ProbeFlags): Promise<void> {
  // Checked before anything is read or started: without a plan nothing may be called.
  if (flags.plan === undefined)
    throw new UsageError(
      'probe calls tools, so it needs --plan PLAN.json naming them (docs/PROBE.md); nothing was called',
    );
  const gates = parseGates(flags.failOn);
  const target = auditTarget(words, flags);
  const [{ PlanError, plannedCalls }, { probe, readPlan }] = await Promise.all([
    import('../model/probe-plan.js'),
    import('../probe.js'),
  ]);
  const plan = await readPlan(flags.plan).catch((err: unknown) => {
    throw err instanceof PlanError ? new UsageError(err.message) : err;
  });
  await checkOutputs(flags, flags.format);
  const { tools, observers } = plannedCalls(plan);
  const list = (names: string[]) => names.map((n) => safeText(n, 80)).join(', ');
  // Loud, whatever -q says: these calls change the server's state.
  process.stderr.write(
    `idemscan probe: will call ${list(tools)} on ${safeText(target.name, 80)}, each up to twice (and once more with conflictArguments)` +
      `${observers.length ? `, and the observer${observers.length === 1 ? '' : 's'} ${list(observers)}` : ''}; their effects are real: use a test backend\n`,
  );
  const interrupt = watchSignals();
  let result;
  try {
    result = await probe(target, plan, {
      timeoutMs: flags.timeout,
      probeTimeoutMs: flags.probeTimeout,
      sandbox: flags.sandbox,
      trust: flags.trust,
      cacheDir: flags.cacheDir,
      signal: interrupt.signal,
    });
  } catch (err) {
    if (err instanceof PlanError) throw new UsageError(err.message);
    throw err;
  }
  for (const w of result.warnings) process.stderr.write(`idemscan: warning: ${w}\n`);
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
  if (!flags.quiet) (flags.json === '-' ? process.stderr : process.stdout).write(probeTerminalLines(report).join(''));
  const code = interrupt.interrupted ? EXIT.interrupted : exitCode(report, gates);
  process.exitCode = written || code === EXIT.interrupted ? code : EXIT.outputFailed;
}

function exitCode(report: Report, gates: Set<Gate>): number {
  if (report.summary.serversOk === 0) return EXIT.allFailed;
  const matched = report.servers.flatMap((s) =>
    s.tools
      .filter((t) => t.probe && gates.has(t.probe.outcome as Gate))
      .map((t) => `${safeText(t.name, 80)} (${t.probe!.outcome})`),
  );
  if (matched.length === 0) return EXIT.ok;
  process.stderr.write(`idemscan: --fail-on matched: ${matched.join(', ')}\n`);
  return EXIT.failOn;
}
