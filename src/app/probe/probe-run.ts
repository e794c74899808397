/** The run of `probe`; the plan is read first so the caller can say what will be called before anything connects. */
import { experimentName, probesOf } from '../../model/probe-cases.js';
import type { ProbeOutcome } from '../../model/probe-schema.js';
import type { ProbePlan } from '../../model/probe-plan.js';
import { streamOf } from '../../model/report-head.js';
import type { Report } from '../../model/schema.js';
import type { Shown } from '../../model/shown.js';
import { joinShown, msg, show } from '../../render/message.js';
import type { ProbeOptions } from './probe.js';
import type { Target } from '../../targets/types.js';
import { nameFromServerInfo } from '../scan/post-process.js';
import type { Say } from '../say.js';
import type { Interruption } from '../scan/scan-run.js';

/** Outcomes, and `overstates`: a tool whose hints claim more than it was seen to do. */
export type ProbeGate = ProbeOutcome | 'overstates';
import { writeReports, type ReportFiles } from '../write-reports.js';

export async function readProbePlan(file: string): Promise<ProbePlan> {
  return (await import('./probe.js')).readPlan(file);
}

export interface ProbeRunSettings {
  options: ProbeOptions;
  files: ReportFiles;
  /** Without --name: the server named by serverInfo.name. */
  nameFromServerInfo: boolean;
  gates: ReadonlySet<ProbeGate>;
  interrupt: Interruption;
}

export interface ProbeFacts {
  report: Report;
  /** The server did not answer. */
  allFailed: boolean;
  matched: Shown[];
  interrupted: boolean;
  outputsFailed: boolean;
}

export async function runProbe(
  target: Target,
  plan: ProbePlan,
  settings: ProbeRunSettings,
  io: { print: (text: string) => void; say: Say },
): Promise<ProbeFacts> {
  const { probeTarget } = await import('./probe.js');
  const result = await probeTarget(target, plan, settings.options);
  for (const w of result.warnings) io.say.warn(msg`${w}`);
  let report = await settings.interrupt.settle(result.report, result.report.servers.length, 1);
  if (settings.nameFromServerInfo) report = { ...report, servers: report.servers.map(nameFromServerInfo) };
  const written = await writeReports(streamOf(report), settings.files, 'probe', io);
  // One match per experiment: a tool planned as cases is named with the case that matched.
  const matched = report.servers.flatMap((s) =>
    s.tools.flatMap((t) =>
      probesOf(t)
        .filter(
          (p) => settings.gates.has(p.outcome) || (p.agreement === 'overstates' && settings.gates.has('overstates')),
        )
        .map(
          (p) =>
            msg`${show.name(experimentName(t.name, p))} (${settings.gates.has(p.outcome) ? p.outcome : 'overstates its hints'})`,
        ),
    ),
  );
  return {
    report,
    allFailed: report.summary.serversOk === 0,
    matched,
    interrupted: settings.interrupt.interrupted,
    outputsFailed: !written.ok,
  };
}

export const probeMatchText = (matched: readonly Shown[]): Shown => msg`--fail-on matched: ${joinShown(matched, ', ')}`;
