/**
 * `idemscan probe` on one server (docs/PROBE.md): open a session, list its tools, prepare the
 * experiments, run them, judge them, close. Unlike a scan it calls tools, with real effects.
 */
import type { ConnectOptions, Launch, Observation } from '../connect/observe.js';
import { open } from '../connect/session.js';
import type { ProbePlan } from '../model/probe-plan.js';
import type { ToolProbe } from '../model/probe-schema.js';
import { toolProbe } from './outcome.js';
import { prepareProbe } from './prepare.js';
import { runExperiments } from './run.js';

/** What the experiment found (undefined fields: it never got to the listing). */
export interface Probed {
  observation: Observation;
  /** Each listed tool's `tools[].probe` (unplanned ones: `not-probed`); absent when nothing was judged. */
  probeOf?: (tool: string) => ToolProbe;
  /** Planned or observing tools the server does not list: then nothing was called. */
  missing?: string[];
  /** Worth a line on stderr: an observer not declared read-only. */
  warnings?: string[];
  /** A bug tripped by the server's data, as `probe()` throws it. */
  crashed?: string;
}

const NOT_PROBED: ToolProbe = {
  outcome: 'not-probed',
  key: null,
  evidence: { reason: 'not in the plan: never called', calls: [], requests: 0, durationMs: 0 },
};

/**
 * `timeoutMs` bounds each call of the experiment (but the calls of a planned tool with its own
 * `timeoutMs`); `connect.timeoutMs` the session up to its listing. Never throws.
 */
export async function probeServer(
  launch: Launch,
  connect: ConnectOptions,
  plan: ProbePlan,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<Probed> {
  const opened = await open(launch, connect);
  if (!opened.ok) return { observation: opened.observation };
  const { session } = opened;
  const listed = await session.listTools();
  if (!listed.ok) return { observation: await session.close() };
  const probes = new Map<string, ToolProbe>();
  let found: Omit<Probed, 'observation'> = {};
  try {
    const prepared = prepareProbe(listed.tools, session.server.capabilities, plan);
    found = { missing: prepared.missing, warnings: prepared.warnings };
    if (prepared.missing.length === 0) {
      found.probeOf = (tool) => probes.get(tool) ?? NOT_PROBED;
      const ran = await runExperiments(session, prepared.experiments, opts);
      prepared.experiments.forEach((e, i) => probes.set(e.name, toolProbe(e, ran[i]!)));
    }
  } catch (err) {
    found.crashed = String((err as Error)?.message ?? err);
  }
  return { observation: await session.close(), ...found };
}
