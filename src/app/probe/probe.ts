/** The library call behind `probe` (docs/PROBE.md): unlike `scan()`, it calls tools, with real effects. */
import type { ConnectOptions } from '../../connect/observe.js';
import { DEFAULTS } from '../../model/limits.js';
import { countProbes } from '../../model/probe-outcomes.js';
import { PlanError, type ProbePlan } from '../../model/probe-plan.js';
import { reportOf } from '../../model/report-head.js';
import type { Report, ServerReport } from '../../model/schema.js';
import { summarize } from '../../model/summary.js';
import { probeServer, type Probed, type RunOpts } from '../../probe/on-session.js';
import { planSecrets } from '../../probe/plan-secrets.js';
import { endRun, kept, runHead, started, startRun, type Run } from '../scan/scan.js';
import { checkTarget, checkWritableOption, refuseUnbound } from '../scan/scan-input.js';
import { crashed, listOnly, liveConnect, prepareServer, serverReportOf, type OneOptions } from '../scan/scan-server.js';
import { defaultCacheDir } from '../../model/cache-dir.js';
import type { ScanOptions } from '../scan/scan-options.js';
import { MemorySink } from '../../spool/sink.js';
import { InputError } from '../../model/input-error.js';
import { sandboxSupport } from '../../launch/sandbox.js';
import type { AutoOptions } from './auto.js';
import type { Target, TargetInput } from '../../targets/types.js';

export { readPlan } from '../../probe/read-plan.js';

export type ProbeOptions = Pick<
  ScanOptions,
  'timeoutMs' | 'probeTimeoutMs' | 'sandbox' | 'writable' | 'trust' | 'cacheDir' | 'signal' | 'onProgress' | 'profiles'
> & {
  /** The plan's file, named in a PlanError. */
  planFile?: string;
  /** Also exercise every tool the plan leaves out, each on a fresh server (stdio, under the sandbox). */
  auto?: boolean;
  autoBudgetMs?: number;
  /** How one `--auto` experiment starts the server in its scratch space (default: `scratchTarget`). */
  autoTargetIn?: AutoOptions['targetIn'];
  /** `--auto`: told the tools it will call, once the server listed them, before the first call. */
  onAutoStart?: AutoOptions['onStart'];
};

export interface ProbeResult {
  report: Report;
  /** Worth a line on stderr: an observer not declared read-only. */
  warnings: string[];
}

/** A plan naming a tool the server does not list is a PlanError, thrown before any call. */
export async function probe(target: TargetInput, plan: ProbePlan, options: ProbeOptions = {}): Promise<ProbeResult> {
  return probeTarget(checkTarget(target), plan, options);
}

export async function probeTarget(target: Target, plan: ProbePlan, options: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const { planFile, auto, autoBudgetMs, autoTargetIn, onAutoStart, ...scanOptions } = options;
  if (auto) refuseAuto(target, options);
  // What the user gave the server is checked before anything starts: a hidden path is an error here.
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  refuseUnbound(target, checkWritableOption(options, cacheDir) ?? [], options, cacheDir);
  const secrets = [...(target.secrets ?? []), ...planSecrets(plan)];
  const run = await startRun([{ ...target, secrets }], {
    ...scanOptions,
    timeoutMs,
    concurrency: 1,
    install: false,
  });
  const sink = new MemorySink();
  const autoOptions = auto
    ? { timeoutMs, budgetMs: autoBudgetMs ?? DEFAULTS.autoBudgetMs, targetIn: autoTargetIn, onStart: onAutoStart }
    : undefined;
  const probed = await probeAt(run, sink, plan, { timeoutMs, signal: options.signal, auto: autoOptions });
  await endRun(run, sink);
  const head = await runHead(run, sink);
  const servers = sink.servers().map((s) => run.secrets.redactLater(s));
  if (probed?.crashed) throw new Error(`idemscan probe: ${probed.crashed}`);
  if (probed?.missing?.length) throw missingError(probed, servers, planFile);
  const probeSummary = countProbes(servers.flatMap((s) => s.tools));
  const summary = { ...summarize(servers), ...(probeSummary ? { probe: probeSummary } : {}) };
  const probeOptions = { ...head.options, probe: { tools: Object.keys(plan.tools), ...(auto ? { auto: true } : {}) } };
  return { report: reportOf({ ...head, options: probeOptions }, summary, servers), warnings: probed?.warnings ?? [] };
}

type ProbeRun = RunOpts & { auto?: Omit<AutoOptions, 'signal'> };

async function probeAt(run: Run, sink: MemorySink, plan: ProbePlan, opts: ProbeRun): Promise<Probed | undefined> {
  const target = run.prepared.targets[0];
  if (!target || run.options.signal?.aborted) return undefined;
  started(run, target, 0);
  const { server, probed } = await probeOne(target, run.connect, run.one, plan, opts).catch((err: unknown) => ({
    server: crashed(target, err, run.secrets),
    probed: undefined,
  }));
  kept(run, sink, 0, server);
  return probed;
}

async function probeOne(
  target: Target,
  connect: ConnectOptions,
  one: OneOptions,
  plan: ProbePlan,
  opts: ProbeRun,
): Promise<{ server: ServerReport; probed?: Probed }> {
  const prepared = await prepareServer(target, connect, one);
  if ('failed' in prepared) return { server: prepared.failed };
  const { launch } = prepared;
  // A saved tool list has no session to call tools on: it is reported as a scan reports it.
  if (launch.transport === 'static') return { server: await listOnly(prepared, one) };
  let probed = await probeServer(launch, liveConnect(prepared), plan, opts).finally(launch.cleanup);
  if (opts.auto && probed.probeOf)
    probed = await withAuto(target, probed, plan, connect, one, { ...opts.auto, signal: opts.signal });
  return { server: serverReportOf(prepared, probed.observation, one, probed), probed };
}

/** The tools the plan leaves out, each exercised on its own fresh server. */
async function withAuto(
  target: Target,
  probed: Probed,
  plan: ProbePlan,
  connect: ConnectOptions,
  one: OneOptions,
  opts: AutoOptions,
): Promise<Probed> {
  const planned = new Set(Object.keys(plan.tools));
  const names = probed.observation.tools.flatMap((t) =>
    typeof t.name === 'string' && !planned.has(t.name) ? [t.name] : [],
  );
  // Lazy: --auto alone needs the argument maker (and the regexp flag it sets) and the snapshots.
  const { autoProbe } = await import('./auto.js');
  const auto = await autoProbe(target, probed.observation.tools, [...new Set(names)], { connect, one }, opts);
  const byPlan = probed.probeOf!;
  return {
    ...probed,
    probeOf: (name) => {
      const found = auto.get(name);
      return found ? { probe: found } : byPlan(name);
    },
  };
}

/** `--auto` calls tools nobody planned for: only a stdio server, and only inside bubblewrap. */
function refuseAuto(target: Target, options: ProbeOptions): void {
  if (target.kind === 'remote' || target.kind === 'saved')
    throw new InputError(
      '--auto probes a stdio server only (a command or a package): its scratch space is what it observes',
    );
  const support = sandboxSupport();
  if (!options.sandbox || support.mode !== 'bubblewrap')
    throw new InputError(
      `--auto calls every tool of a server nobody planned for: it runs only with --sandbox under bubblewrap${options.sandbox ? ` (here: ${support.note ?? support.mode})` : ''}; nothing was started`,
    );
}

function missingError(probed: Probed, servers: ServerReport[], planFile: string | undefined): PlanError {
  const missing = probed.missing ?? [];
  const listed = servers[0]?.tools.map((t) => t.name) ?? [];
  return new PlanError(
    `the plan names ${missing.map((n) => JSON.stringify(n)).join(', ')}, which the server does not list (it lists ${listed.slice(0, 20).join(', ') || 'no tools'}); nothing was called`,
    {
      ...(probed.missingFields?.[0] === undefined ? {} : { field: probed.missingFields[0] }),
      ...(planFile === undefined ? {} : { file: planFile }),
    },
  );
}
