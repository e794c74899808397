/**
 * One server of a scan: contained launch, connection, classification and its one redaction pass.
 * Per-server failures are values; `crashed()` is the last line of defence for a bug tripped by a server.
 */
import { LIMITS } from './model/limits.js';
import { classifyServer } from './classify/index.js';
import { observe, type ConnectOptions, type Observation } from './connect/observe.js';
import type { OAuthScanOptions } from './connect/oauth/server-auth.js';
import { bounded } from './model/bounds.js';
import { fitServerReport } from './model/budget.js';
import type { ServerReport } from './model/schema.js';
import { cacheDirs } from './launch/npm.js';
import { planLaunch, type LaunchPlan } from './launch/plan.js';
import { describeTarget, type Redactor } from './redact/redact.js';
import { RunSecrets } from './redact/run-secrets.js';
import { redactServer } from './redact/redact-report.js';
import { NameMatcher } from './model/server-names.js';
import { inputOf, transportOf } from './targets/kind.js';
import type { Target } from './targets/types.js';
import type { InternalScanOptions, Visit, Visited } from './scan-options.js';
import { serverReport, type ServerParts } from './server-report.js';

export interface OneOptions extends InternalScanOptions {
  cacheDir: string;
  installErrors: Map<string, string>;
  /** The run's secrets: each server's redactor comes from them. */
  secrets: RunSecrets;
  trustMatcher: NameMatcher;
}

export async function scanOne(target: Target, connect: ConnectOptions, opts: OneOptions): Promise<ServerReport> {
  // The server's one redactor: its launch and the run's shared secrets, then the OAuth tokens,
  // codes and secrets connecting meets (told to it by the connector).
  const redactor = opts.secrets.server(target);
  const server = await scanServer(target, { ...connect, secrets: redactor }, opts, redactor);
  // Shortened after redaction, so that a cut never leaves half a secret unrecognised.
  return fitServerReport(redactServer(server, redactor));
}

async function scanServer(
  target: Target,
  connect: ConnectOptions,
  opts: OneOptions,
  redact: Redactor,
): Promise<ServerReport> {
  const trusted = target.trusted === true || opts.trustMatcher.matches({ target: target.name });
  const planned = await planLaunch(target, {
    cacheDir: opts.cacheDir,
    sandbox: !!opts.sandbox,
    writable: opts.writable,
    installErrors: opts.installErrors,
    redactArgs: (args) => redact.args(args),
  });
  if ('failure' in planned)
    return serverReport(target.name, {
      status: 'failed',
      failure: planned.failure,
      target: describeTarget(inputOf(target), planned.resolved, redact),
      durationMs: 0,
      trusted,
    });
  const launch: LaunchPlan = planned.plan;
  const { resolved, sandbox, writable } = planned.plan;
  const packaged = planned.plan;
  const saved = launch.transport === 'static';
  const visit = opts.visit ?? observeOnly;
  const {
    observation: obs,
    probeOf,
    probeSetup,
  } = saved
    ? { observation: await (await import('./connect/saved.js')).observeSaved(launch.saved, connect) }
    : await visit(launch, target.timeoutMs ? { ...connect, timeoutMs: target.timeoutMs } : connect).finally(
        packaged.cleanup,
      );
  const described = describeTarget(inputOf(target), resolved, redact);
  const fakeEnv = [...(described.fakeEnv ?? []), ...(packaged.fakeEnv ?? [])];
  const target_ = {
    ...described,
    sandbox,
    writable,
    digest: packaged.digest,
    fakeEnv: fakeEnv.length ? fakeEnv : undefined,
  };
  const { durationMs } = obs;
  // Stopped while this server was listed or closed: it is left out of the report, so classifying
  // it would only delay the stop.
  if (connect.signal?.aborted)
    return serverReport(target.name, { status: 'failed', failure: INTERRUPTED, target: target_, trusted, durationMs });
  const seen = { target: target_, session: obs.session, auth: obs.auth, durationMs };
  if (obs.failure)
    return serverReport(target.name, {
      ...seen,
      status: 'failed',
      failure: obs.failure,
      trusted,
      findings: obs.findings,
    });
  const listed = listedServer(target, obs, { ...seen, saved, trusted }, opts, probeOf);
  return probeSetup ? { ...listed, probeSetup } : listed;
}

/** A server whose tools were listed: classified (and, for `idemscan probe`, each tool's probe added). */
function listedServer(
  target: Target,
  obs: Observation,
  seen: Pick<ServerParts, 'target' | 'session' | 'auth' | 'durationMs' | 'saved' | 'trusted'>,
  opts: OneOptions,
  probeOf: Visited['probeOf'],
): ServerReport {
  const session = obs.session!;
  let trusted = seen.trusted!;
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
  // Before redaction: the answers quoted in the evidence are cleaned like every other text.
  if (probeOf) for (const tool of classified.tools) Object.assign(tool, probeOf(tool.name));
  return serverReport(target.name, {
    ...seen,
    status: 'ok',
    trusted,
    idempotencyCapability: classified.idempotencyCapability,
    tools: classified.tools,
    findings: obs.findings.concat(classified.findings),
  });
}

const INTERRUPTED = { kind: 'interrupted', message: 'interrupted' } as const;

/** A scan's use of a live server: its tools, nothing called. */
const observeOnly: Visit = async (launch, connect): Promise<Visited> => ({
  observation: await observe(launch, connect),
});

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

/** The run's secrets: the token store of the scan's cache dir and the default one (a server may read either). */
export function runSecrets(
  cacheDir: string,
  oauth: Partial<OAuthScanOptions> | undefined,
  resumed: boolean,
): Promise<RunSecrets> {
  const stored = async () => {
    const { readRecords, recordSecrets } = await import('./connect/oauth/store.js');
    return cacheDirs(cacheDir)
      .flatMap((dir) => readRecords(dir))
      .flatMap((r) => recordSecrets(r.record));
  };
  return RunSecrets.open(stored, oauth?.clientSecret, resumed);
}
