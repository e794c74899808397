/**
 * The experiments of `idemscan probe` (docs/PROBE.md) before anything is sent: which planned and
 * observing tools the server does not list, which observers are not declared read-only, and for
 * each planned tool its arguments with a fresh key wherever classification found a strong key.
 * Pure but for the keys (`newKey`): run.ts sends the calls.
 */
import { randomUUID } from 'node:crypto';
import { bounded } from '../model/bounds.js';
import type { ProbePlan } from '../model/probe-plan.js';
import type { ProbeExperiment } from '../model/probe-schema.js';
import { classifyTool } from '../classify/index.js';
import { placeKey } from '../classify/key-place.js';
import { advertisesIdempotency } from '../classify/verdict.js';

export interface PreparedProbe {
  experiments: ProbeExperiment[];
  /** Tools the plan names (to call or to observe with) that the server does not list: then nothing is called. */
  missing: string[];
  /** Said once on stderr: an observer not declared read-only. */
  warnings: string[];
}

export function prepareProbe(
  tools: readonly Record<string, unknown>[],
  capabilities: Record<string, unknown> | undefined,
  plan: ProbePlan,
  newKey: () => string = randomUUID,
): PreparedProbe {
  const listed = new Map(tools.map((t) => [String(t.name), t]));
  const named = Object.entries(plan.tools).flatMap(([name, t]) => [name, ...(t.observe ? [t.observe.tool] : [])]);
  const missing = [...new Set(named.filter((n) => !listed.has(n)))];
  // A plan that does not match the server is a mistake in the plan: nothing at all is called.
  if (missing.length > 0) return { experiments: [], missing, warnings: [] };
  const serverKeyed = advertisesIdempotency(capabilities);
  const warnings: string[] = [];
  for (const observer of new Set(Object.values(plan.tools).flatMap((t) => (t.observe ? [t.observe.tool] : [])))) {
    if (classifyTool(listed.get(observer)!, false).verdict !== 'read-only') {
      warnings.push(
        `observer ${JSON.stringify(bounded(observer, 80))} is not declared read-only (readOnlyHint); its calls are real calls too`,
      );
    }
  }
  const experiments = Object.entries(plan.tools).map(([name, planned]): ProbeExperiment => {
    const tool = classifyTool(listed.get(name)!, serverKeyed);
    const key = newKey();
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
      name,
      arguments: args,
      ...(conflictArgs ? { conflictArguments: conflictArgs } : {}),
      ...(planned.observe ? { observe: planned.observe } : {}),
      ...(planned.timeoutMs ? { timeoutMs: planned.timeoutMs } : {}),
      key,
      protocolKey: serverKeyed,
      keyLocations,
    };
  });
  return { experiments, missing, warnings };
}
