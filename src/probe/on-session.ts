// `idemscan probe` on one server (docs/PROBE.md): unlike a scan it calls tools, with real effects.
import type { ConnectOptions, Observation } from '../connect/observe.js';
import type { LaunchPlan } from '../launch/plan.js';
import { open, type Session } from '../connect/session.js';
import type { ProbePlan } from '../model/probe-plan.js';
import type { ToolProbes } from '../model/probe-cases.js';
import type { ProbeExperiment, ProbeSetup, RanExperiment, ToolProbe } from '../model/probe-schema.js';
import { toolProbe } from './outcome.js';
import { prepareProbe, type PreparedProbe } from './prepare.js';
import { runExperiments, runSetup } from './run.js';

/** Undefined fields: it never got to the listing. */
export interface Probed {
  observation: Observation;
  /** Absent when nothing was judged. */
  probeOf?: (tool: string) => ToolProbes;
  probeSetup?: ProbeSetup;
  /** Tools the plan names that the server does not list: then nothing was called. */
  missing?: string[];
  missingFields?: string[];
  warnings?: string[];
  /** A bug tripped by the server's data, as `probe()` throws it. */
  crashed?: string;
}

const NOT_PROBED: ToolProbe = {
  outcome: 'not-probed',
  key: null,
  evidence: { reason: 'not in the plan: never called', calls: [], requests: 0, durationMs: 0 },
};

export type RunOpts = { timeoutMs: number; signal?: AbortSignal };

/** `connect.timeoutMs` bounds the session up to its listing, `timeoutMs` each call. Never throws. */
export async function probeServer(
  launch: LaunchPlan,
  connect: ConnectOptions,
  plan: ProbePlan,
  opts: RunOpts,
): Promise<Probed> {
  const opened = await open(launch, connect);
  if (!opened.ok) return { observation: opened.observation };
  const { session } = opened;
  const listed = await session.listTools();
  if (!listed.ok) return { observation: await session.close() };
  let found: Omit<Probed, 'observation'> = {};
  try {
    const prepared = prepareProbe(listed.tools, session.server.capabilities, plan);
    found = { missing: prepared.missing, missingFields: prepared.missingFields, warnings: prepared.warnings };
    if (prepared.missing.length === 0) found = { ...found, ...(await experiments(session, prepared, opts)) };
  } catch (err) {
    found.crashed = String((err as Error)?.message ?? err);
  }
  return { observation: await session.close(), ...found };
}

async function experiments(
  session: Session,
  prepared: PreparedProbe,
  opts: RunOpts,
): Promise<Pick<Probed, 'probeOf' | 'probeSetup'>> {
  let setup: ProbeSetup | undefined;
  let ran: RanExperiment[];
  if (prepared.setup.length > 0) {
    const done = await runSetup(session, prepared.setup, opts);
    setup = {
      calls: done.calls.map(({ compared: _c, why: _w, ended: _e, ...kept }) => kept),
      ...(done.failed ? { failed: done.failed } : {}),
      requests: done.calls.length,
      durationMs: done.durationMs,
    };
  }
  if (setup?.failed) {
    const notRun = `the plan's setup failed (${setup.failed})`;
    ran = prepared.experiments.map(() => ({ calls: [], durationMs: 0, notRun }));
  } else ran = await runExperiments(session, prepared.experiments, opts);
  const byTool = byToolOf(prepared.experiments, ran);
  return { probeOf: (tool) => byTool.get(tool) ?? { probe: NOT_PROBED }, ...(setup ? { probeSetup: setup } : {}) };
}

function byToolOf(experiments: readonly ProbeExperiment[], ran: readonly RanExperiment[]): Map<string, ToolProbes> {
  const out = new Map<string, ToolProbes>();
  experiments.forEach((e, i) => {
    const judged = toolProbe(e, ran[i]!);
    if (e.case === undefined) out.set(e.name, { probe: judged });
    else out.set(e.name, { probes: [...(out.get(e.name)?.probes ?? []), judged] });
  });
  return out;
}
