/**
 * The library call behind `idemscan probe` (docs/PROBE.md): one server, scanned as `scan()` scans
 * it, and on the same connection the lost-response experiment on each tool the plan names. Unlike
 * `scan()`, it calls tools, and their effects are real: run it against a test backend you own.
 */
import { runProbe, type ProbeRun } from './connect/probe-run.js';
import { countProbes } from './report/probe-outcomes.js';
import type { ToolProbe } from './report/probe-schema.js';
import type { Report } from './report/schema.js';
import { scan, type ScanOptions } from './scan.js';
import { PlanError, planSecrets, type ProbePlan } from './targets/probe-plan.js';
import type { Target } from './targets/types.js';

export type ProbeOptions = Pick<ScanOptions, 'timeoutMs' | 'probeTimeoutMs' | 'sandbox' | 'trust' | 'cacheDir' | 'signal' | 'onProgress'>;

export interface ProbeResult {
  report: Report;
  /** Worth a line on stderr: an observer not declared read-only. */
  warnings: string[];
}

const NOT_PROBED: ToolProbe = { outcome: 'not-probed', key: null, evidence: { reason: 'not in the plan: never called', calls: [], requests: 0, durationMs: 0 } };

/**
 * `timeoutMs` bounds the connection up to the listing and then each call of the experiment. A
 * plan naming a tool the server does not list is a PlanError, and then nothing was called.
 */
export async function probe(target: Target, plan: ProbePlan, options: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let run: ProbeRun | undefined;
  let crashed: string | undefined;
  const report = await scan([{ ...target, secrets: [...(target.secrets ?? []), ...planSecrets(plan)] }], {
    ...options,
    timeoutMs,
    concurrency: 1,
    install: false,
    afterList: async (open) => {
      try {
        run = await runProbe(open, plan, { timeoutMs, signal: options.signal });
      } catch (err) {
        crashed = String((err as Error)?.message ?? err);
      }
    },
    // Before redaction: the answers quoted in the evidence are cleaned like every other text.
    attach: (server) => {
      if (!run || run.missing.length > 0) return;
      for (const tool of server.tools) tool.probe = run.probes.get(tool.name) ?? NOT_PROBED;
    },
  });
  if (crashed) throw new Error(`idemscan probe: ${crashed}`);
  if (run && run.missing.length > 0) {
    const listed = report.servers[0]?.tools.map((t) => t.name) ?? [];
    throw new PlanError(
      `the plan names ${run.missing.map((n) => JSON.stringify(n)).join(', ')}, which the server does not list (it lists ${listed.slice(0, 20).join(', ') || 'no tools'}); nothing was called`,
    );
  }
  const probeSummary = countProbes(report.servers.flatMap((s) => s.tools));
  if (probeSummary) report.summary.probe = probeSummary;
  report.options.probe = { tools: Object.keys(plan.tools) };
  return { report, warnings: run?.warnings ?? [] };
}
