/**
 * The library call behind `idemscan probe` (docs/PROBE.md): one server, scanned as `scan()` scans
 * it, and on the same connection the lost-response experiment on each tool the plan names. Unlike
 * `scan()`, it calls tools, and their effects are real: run it against a test backend you own.
 */
import { prepareProbe } from './classify/probe-prepare.js';
import { toolProbe } from './classify/probe-outcome.js';
import { runExperiments } from './connect/probe-run.js';
import { countProbes } from './model/probe-outcomes.js';
import { readBoundedText } from './io/read.js';
import { MAX_PLAN_BYTES, planOfText, PlanError, type ProbePlan } from './model/probe-plan.js';
import type { ToolProbe } from './model/probe-schema.js';
import type { Report } from './model/schema.js';
import { planSecrets } from './redact/plan-secrets.js';
import { scan, type ScanOptions } from './scan.js';
import type { Target } from './targets/types.js';

/** What the experiment on the open connection found (classify prepares and judges, connect sends). */
interface ProbeRun {
  probes: Map<string, ToolProbe>;
  missing: string[];
  warnings: string[];
}

export type ProbeOptions = Pick<
  ScanOptions,
  'timeoutMs' | 'probeTimeoutMs' | 'sandbox' | 'trust' | 'cacheDir' | 'signal' | 'onProgress'
>;

export interface ProbeResult {
  report: Report;
  /** Worth a line on stderr: an observer not declared read-only. */
  warnings: string[];
}

/** A plan file, read to MAX_PLAN_BYTES and checked; a PlanError naming the file when it is no plan. */
export async function readPlan(file: string): Promise<ProbePlan> {
  const read = await readBoundedText(file, { maxBytes: MAX_PLAN_BYTES });
  if ('error' in read)
    throw new PlanError(read.kind === 'unreadable' ? `cannot read it (${read.code ?? 'error'})` : read.error, {
      field: '--plan',
      file,
    });
  return planOfText(read.text, file);
}

const NOT_PROBED: ToolProbe = {
  outcome: 'not-probed',
  key: null,
  evidence: { reason: 'not in the plan: never called', calls: [], requests: 0, durationMs: 0 },
};

/**
 * `timeoutMs` bounds the connection up to the listing and then each call of the experiment (but
 * the calls of a planned tool with its own `timeoutMs`). A plan naming a tool the server does not
 * list is a PlanError, and then nothing was called.
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
      // Once per probe: a second connection (should the connector's retry policy ever open one
      // after a listing) lists again but never repeats the calls.
      if (run) return;
      try {
        const prepared = prepareProbe(open.tools, open.session.capabilities, plan);
        run = { probes: new Map(), missing: prepared.missing, warnings: prepared.warnings };
        if (prepared.missing.length > 0) return;
        const ran = await runExperiments(open, prepared.experiments, { timeoutMs, signal: options.signal });
        prepared.experiments.forEach((e, i) => run!.probes.set(e.name, toolProbe(e, ran[i]!)));
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
