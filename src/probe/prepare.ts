// Pure but for the keys (`newKey`); run.ts sends the calls.
import { randomUUID } from 'node:crypto';
import { bounded } from '../model/bounds.js';
import {
  planExperiments,
  planFields,
  type PlannedCall,
  type PlannedExperiment,
  type ProbePlan,
} from '../model/probe-plan.js';
import type { ProbeExperiment } from '../model/probe-schema.js';
import type { ToolReport } from '../model/schema.js';
import { classifyTool } from '../classify/index.js';
import { placeKey } from '../classify/key-place.js';
import { advertisesIdempotency } from '../classify/verdict.js';

export interface PreparedProbe {
  setup: PlannedCall[];
  experiments: ProbeExperiment[];
  /** Then nothing is called. */
  missing: string[];
  /** In the order of `missing`. */
  missingFields: string[];
  /** An observer not declared read-only. */
  warnings: string[];
}

export function prepareProbe(
  tools: readonly Record<string, unknown>[],
  capabilities: Record<string, unknown> | undefined,
  plan: ProbePlan,
  newKey: () => string = randomUUID,
): PreparedProbe {
  const listed = new Map(tools.map((t) => [String(t.name), t]));
  const fields = planFields(plan);
  const missing = [...fields.keys()].filter((n) => !listed.has(n));
  // A plan that does not match the server is a mistake: nothing at all is called.
  if (missing.length > 0)
    return { setup: [], experiments: [], missing, missingFields: missing.map((m) => fields.get(m)!), warnings: [] };
  const serverKeyed = advertisesIdempotency(capabilities);
  const planned = planExperiments(plan);
  const warnings: string[] = [];
  for (const observer of new Set(planned.flatMap((e) => (e.planned.observe ? [e.planned.observe.tool] : [])))) {
    if (classifyTool(listed.get(observer)!, false).verdict !== 'read-only') {
      warnings.push(
        `observer ${JSON.stringify(bounded(observer, 80))} is not declared read-only (readOnlyHint); its calls are real calls too`,
      );
    }
  }
  const classified = new Map<string, ToolReport>();
  const classifiedOf = (name: string) =>
    classified.get(name) ?? classified.set(name, classifyTool(listed.get(name)!, serverKeyed)).get(name)!;
  const experiments = planned.map((e) => experimentOf(e, classifiedOf(e.name), serverKeyed, newKey()));
  return { setup: plan.setup ?? [], experiments, missing, missingFields: [], warnings };
}

function experimentOf(e: PlannedExperiment, tool: ToolReport, serverKeyed: boolean, key: string): ProbeExperiment {
  const { planned } = e;
  const keyLocations: string[] = [];
  let args = planned.arguments;
  let conflictArgs = planned.conflictArguments;
  for (const k of tool.keyArguments.filter((a) => a.confidence === 'strong')) {
    const put = placeKey(args, k.path, key);
    args = put.args;
    if (conflictArgs) conflictArgs = placeKey(conflictArgs, k.path, key).args;
    if (put.placed) keyLocations.push(k.path);
  }
  if (serverKeyed) keyLocations.push('params.idempotencyKey');
  return {
    name: e.name,
    ...(e.case === undefined ? {} : { case: e.case }),
    arguments: args,
    ...(conflictArgs ? { conflictArguments: conflictArgs } : {}),
    ...(planned.observe ? { observe: planned.observe } : {}),
    ...(planned.timeoutMs ? { timeoutMs: planned.timeoutMs } : {}),
    key,
    protocolKey: serverKeyed,
    keyLocations,
  };
}
