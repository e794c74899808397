/** One server of a scan or a probe; its failures are values, and `crashed()` catches a bug a server trips. */
import { LIMITS } from '../../model/limits.js';
import { classifyServer } from '../../classify/index.js';
import { observe, type ConnectOptions, type Observation } from '../../connect/observe.js';
import type { OAuthScanOptions } from '../../connect/oauth/server-auth.js';
import { bounded } from '../../model/bounds.js';
import { fitServerReport } from '../../model/budget.js';
import type { ToolProbes } from '../../model/probe-cases.js';
import { noteObservers } from '../../model/probe-outcomes.js';
import { withAgreement } from '../../classify/behaviour.js';
import { behaviourFindings } from '../../classify/profiles/evaluate.js';
import type { ProbeSetup } from '../../model/probe-schema.js';
import type { Failure, ServerReport, TargetInfo, ToolReport } from '../../model/schema.js';
import { unboundOf, type GivenPath } from '../../launch/writable.js';
import { cacheDirs } from '../../launch/npm.js';
import { planLaunch, type LaunchPlan } from '../../launch/plan.js';
import { describeTarget, type Redactor } from '../../redact/redact.js';
import { RunSecrets } from '../../redact/run-secrets.js';
import { redactServer } from '../../redact/redact-report.js';
import { NameMatcher } from '../../model/server-names.js';
import { inputOf, transportOf } from '../../targets/kind.js';
import type { Target } from '../../targets/types.js';
import type { InternalScanOptions } from './scan-options.js';
import { serverReport } from './server-report.js';

export interface OneOptions extends InternalScanOptions {
  cacheDir: string;
  installErrors: Map<string, string>;
  secrets: RunSecrets;
  trustMatcher: NameMatcher;
}

/** A server ready to be reached: what a scan and a probe both start from. */
export interface PreparedServer {
  target: Target;
  launch: LaunchPlan;
  connect: ConnectOptions;
  /** The server's one redactor: its launch and the run's secrets, then what connecting meets. */
  redactor: Redactor;
  trusted: boolean;
  described: TargetInfo;
  /** What the sandbox hid of the paths it was given: said only if it fails (hiddenNote). */
  hidden: GivenPath[];
}

export interface ProbeFound {
  probeOf?: (tool: string) => ToolProbes;
  probeSetup?: ProbeSetup;
}

/** A server that cannot start is its report. */
export async function prepareServer(
  target: Target,
  connect: ConnectOptions,
  opts: OneOptions,
): Promise<PreparedServer | { failed: ServerReport }> {
  const redactor = opts.secrets.server(target);
  const trusted = target.trusted === true || opts.trustMatcher.matches({ target: target.name });
  const planned = await planLaunch(target, {
    cacheDir: opts.cacheDir,
    sandbox: !!opts.sandbox,
    writable: opts.writable,
    installErrors: opts.installErrors,
    redactArgs: (args) => redactor.args(args),
  });
  if ('failure' in planned) {
    const described = describeTarget(inputOf(target), planned.resolved, redactor);
    const parts = { status: 'failed', failure: planned.failure, target: described, durationMs: 0, trusted } as const;
    return { failed: finished(serverReport(target.name, parts), redactor) };
  }
  const launch = planned.plan;
  const described = describeTarget(inputOf(target), launch.resolved, redactor);
  const fakeEnv = [...(described.fakeEnv ?? []), ...(launch.fakeEnv ?? [])];
  const hidden = launch.sandbox === 'bubblewrap' ? unboundOf(target, opts.writable ?? [], true, opts.cacheDir) : [];
  return {
    target,
    launch,
    connect: { ...connect, secrets: redactor },
    redactor,
    trusted,
    hidden: hidden.filter((u) => !u.missing),
    described: {
      ...described,
      sandbox: launch.sandbox,
      writable: launch.writable,
      digest: launch.digest,
      fakeEnv: fakeEnv.length ? fakeEnv : undefined,
    },
  };
}

export function liveConnect({ target, connect }: PreparedServer): ConnectOptions {
  return target.timeoutMs ? { ...connect, timeoutMs: target.timeoutMs } : connect;
}

export async function scanOne(target: Target, connect: ConnectOptions, opts: OneOptions): Promise<ServerReport> {
  const prepared = await prepareServer(target, connect, opts);
  return 'failed' in prepared ? prepared.failed : listOnly(prepared, opts);
}

export async function listOnly(prepared: PreparedServer, opts: OneOptions): Promise<ServerReport> {
  const { launch } = prepared;
  const { onObserved } = opts;
  const obs =
    launch.transport === 'static'
      ? await (await import('../../connect/saved.js')).observeSaved(launch.saved, prepared.connect)
      : await observe(launch, { ...liveConnect(prepared), ...(onObserved ? { keepSent: true } : {}) }).finally(
          launch.cleanup,
        );
  if (launch.transport !== 'static') onObserved?.(obs, prepared.redactor);
  return serverReportOf(prepared, obs, opts);
}

export function serverReportOf(
  prepared: PreparedServer,
  obs: Observation,
  opts: OneOptions,
  found: ProbeFound = {},
): ServerReport {
  const { target, trusted, described, connect } = prepared;
  const { durationMs } = obs;
  let server: ServerReport;
  // Stopped while listed or closed: it is left out of the report, so classifying it would only delay the stop.
  if (connect.signal?.aborted)
    server = serverReport(target.name, {
      status: 'failed',
      failure: INTERRUPTED,
      target: described,
      trusted,
      durationMs,
    });
  else if (obs.failure)
    server = serverReport(target.name, {
      target: described,
      session: obs.session,
      auth: obs.auth,
      durationMs,
      status: 'failed',
      failure: hiddenNote(obs.failure, prepared.hidden),
      trusted,
      findings: obs.findings,
    });
  else server = listedServer(prepared, obs, opts, found);
  return finished(server, prepared.redactor);
}

function listedServer(prepared: PreparedServer, obs: Observation, opts: OneOptions, found: ProbeFound): ServerReport {
  const { target, described, launch } = prepared;
  const session = obs.session!;
  let trusted = prepared.trusted;
  // By the name audit shows for it too (serverInfo.name), known only now.
  if (opts.trustServerInfo)
    trusted = opts.trustMatcher.matches({ target: target.name, serverInfo: session.serverInfo?.name }) || trusted;
  const classified = classifyServer({
    name: target.name,
    capabilities: session.capabilities,
    trusted,
    rawTools: obs.tools,
    profiles: opts.profiles?.map((p) => p.profile),
  });
  const { probeOf, probeSetup } = found;
  const tools = probeOf ? probedTools(classified.tools, probeOf, opts) : classified.tools;
  if (probeOf) noteObservers(tools);
  const listed = serverReport(target.name, {
    target: described,
    session,
    auth: obs.auth,
    durationMs: obs.durationMs,
    saved: launch.transport === 'static',
    status: 'ok',
    trusted,
    idempotencyCapability: classified.idempotencyCapability,
    tools,
    findings: obs.findings.concat(classified.findings),
  });
  return probeSetup ? { ...listed, probeSetup } : listed;
}

/** Each tool with its probe results, their agreement with its hints, and the profiles' behaviour checks. */
function probedTools(tools: ToolReport[], probeOf: NonNullable<ProbeFound['probeOf']>, opts: OneOptions): ToolReport[] {
  const profiles = opts.profiles?.map((p) => p.profile) ?? [];
  return tools.map((tool) => {
    const judged = withAgreement({ ...tool, ...probeOf(tool.name) });
    const more = behaviourFindings(profiles, judged);
    return more.length ? { ...judged, findings: [...judged.findings, ...more] } : judged;
  });
}

/** A listing writes nothing, so a hidden path matters only when the server failed, maybe for want of it. */
function hiddenNote(failure: Failure, hidden: GivenPath[]): Failure {
  const [first, ...more] = hidden;
  if (!first) return failure;
  const also = more.length ? ` and ${more.length} more` : '';
  const note = `the sandbox hid ${first.path} (${first.via}${also}) from it; if it needs that to start, scan it without --sandbox`;
  return { ...failure, message: `${failure.message}; ${note}` };
}

/** Redacted, then fitted: a cut after redaction never leaves half a secret unrecognised. */
function finished(server: ServerReport, redactor: Redactor): ServerReport {
  return fitServerReport(redactServer(server, redactor));
}

const INTERRUPTED = { kind: 'interrupted', message: 'interrupted' } as const;

/** Last line of defence: a bug tripped by one server's data must not lose the other servers. */
export function crashed(target: Target, err: unknown, secrets: RunSecrets): ServerReport {
  const server = serverReport(target.name, {
    status: 'failed',
    failure: {
      kind: 'protocol',
      message: `idemscan could not process this server: ${bounded(String((err as Error)?.message ?? err), LIMITS.errorChars)}`,
    },
    target: { transport: transportOf(target), source: target.source },
    durationMs: 0,
  });
  // The error may quote what the server sent: the same single pass as every other report.
  return redactServer(server, secrets.server(target));
}

/** The token stores of the scan's cache dir and the default one: a server may read either. */
export function runSecrets(
  cacheDir: string,
  oauth: Partial<OAuthScanOptions> | undefined,
  resumed: boolean,
): Promise<RunSecrets> {
  const stored = async () => {
    const { readRecords, recordSecrets } = await import('../../connect/oauth/store.js');
    return cacheDirs(cacheDir)
      .flatMap((dir) => readRecords(dir))
      .flatMap((r) => recordSecrets(r.record));
  };
  return RunSecrets.open(stored, oauth?.clientSecret, resumed);
}
