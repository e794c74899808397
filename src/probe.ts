/**
 * The library call behind `idemscan probe` (docs/PROBE.md): one server, scanned as `scan()` scans
 * it, and on the same session the lost-response experiment on each tool the plan names
 * (src/probe/). Unlike `scan()`, it calls tools, and their effects are real: run it against a test
 * backend you own.
 */
import { countProbes, noteObservers } from './model/probe-outcomes.js';
import { PlanError, type ProbePlan } from './model/probe-plan.js';
import type { Report } from './model/schema.js';
import { probeServer, type Probed } from './probe/on-session.js';
import { planSecrets } from './probe/plan-secrets.js';
import { scanTargets } from './scan.js';
import { checkTarget, checkWritableOption, refuseUnbound } from './scan-input.js';
import { defaultCacheDir } from './model/cache-dir.js';
import type { ScanOptions } from './scan-options.js';
import type { Target, TargetInput } from './targets/types.js';

export { readPlan } from './probe/read-plan.js';

export type ProbeOptions = Pick<
  ScanOptions,
  'timeoutMs' | 'probeTimeoutMs' | 'sandbox' | 'writable' | 'trust' | 'cacheDir' | 'signal' | 'onProgress'
> & {
  /** What the plan is called in a PlanError (its file): a plan that does not match the server names it and the field. */
  planFile?: string;
};

export interface ProbeResult {
  report: Report;
  /** Worth a line on stderr: an observer not declared read-only. */
  warnings: string[];
}

/**
 * `timeoutMs` bounds the connection up to the listing and then each call of the experiment (but
 * the calls of a planned tool with its own `timeoutMs`). A plan naming a tool the server does not
 * list is a PlanError, and then nothing was called.
 */
export async function probe(target: TargetInput, plan: ProbePlan, options: ProbeOptions = {}): Promise<ProbeResult> {
  return probeTarget(checkTarget(target), plan, options);
}

/** `probe` of a target already checked (the CLI's and the plan library's). */
export async function probeTarget(target: Target, plan: ProbePlan, options: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let probed: Probed | undefined;
  const { planFile, ...scanOptions } = options;
  // What the user gave the server is checked before anything starts: a hidden path is an error here.
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  refuseUnbound(target, checkWritableOption(options, cacheDir) ?? [], options, cacheDir);
  const report = await scanTargets([{ ...target, secrets: [...(target.secrets ?? []), ...planSecrets(plan)] }], {
    ...scanOptions,
    timeoutMs,
    concurrency: 1,
    install: false,
    unboundChecked: true,
    // The one target's session: open, list, prepare, run, judge, close (probe/on-session.ts).
    visit: async (launch, connect) =>
      (probed = await probeServer(launch, connect, plan, { timeoutMs, signal: options.signal })),
  });
  if (probed?.crashed) throw new Error(`idemscan probe: ${probed.crashed}`);
  if (probed?.missing?.length) throw missingError(probed, report, planFile);
  for (const s of report.servers) noteObservers(s.tools);
  const probeSummary = countProbes(report.servers.flatMap((s) => s.tools));
  if (probeSummary) report.summary.probe = probeSummary;
  report.options.probe = { tools: Object.keys(plan.tools) };
  return { report, warnings: probed?.warnings ?? [] };
}

/** A plan naming tools the server does not list: the names, the first one's field, and what it does list. */
function missingError(probed: Probed, report: Report, planFile: string | undefined): PlanError {
  const missing = probed.missing ?? [];
  const listed = report.servers[0]?.tools.map((t) => t.name) ?? [];
  return new PlanError(
    `the plan names ${missing.map((n) => JSON.stringify(n)).join(', ')}, which the server does not list (it lists ${listed.slice(0, 20).join(', ') || 'no tools'}); nothing was called`,
    {
      ...(probed.missingFields?.[0] === undefined ? {} : { field: probed.missingFields[0] }),
      ...(planFile === undefined ? {} : { file: planFile }),
    },
  );
}
