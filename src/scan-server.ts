/**
 * One server of a scan: contained launch, connection, classification and its one redaction pass.
 * Per-server failures are values; `crashed()` is the last line of defence for a bug tripped by a server.
 */
import { LIMITS } from './model/limits.js';
import { classifyServer } from './classify/index.js';
import type { Session } from './connect/negotiate.js';
import { observe, type ConnectOptions, type Launch } from './connect/observe.js';
import type { OAuthScanOptions } from './connect/oauth/server-auth.js';
import { bounded, boundedObject, serverInfoOf } from './model/bounds.js';
import { fitServerReport } from './model/budget.js';
import type { ServerReport } from './model/schema.js';
import { cacheDirs } from './launch/npm.js';
import { planLaunch } from './launch/plan.js';
import { describeTarget, Redactor } from './redact/redact.js';
import { redactServer } from './redact/redact-report.js';
import { NameMatcher } from './model/server-names.js';
import type { Target } from './targets/types.js';
import type { ScanOptions } from './scan-options.js';

export interface OneOptions extends ScanOptions {
  cacheDir: string;
  installErrors: Map<string, string>;
  /** Redacted from every server's report (scanSecrets). */
  shared: string[];
  trustMatcher: NameMatcher;
}

export async function scanOne(target: Target, connect: ConnectOptions, opts: OneOptions): Promise<ServerReport> {
  // OAuth tokens, codes and secrets met while connecting join the launch's own secrets.
  const secrets: string[] = [];
  // The server's one redactor: its launch and the scan's shared secrets, then what connecting met.
  const redactor = new Redactor({ ...target, secrets: [...(target.secrets ?? []), ...opts.shared] });
  const server = await scanServer(target, { ...connect, secrets }, opts, redactor);
  opts.attach?.(server);
  redactor.add(secrets);
  // Shortened after redaction, so that a cut never leaves half a secret unrecognised.
  return fitServerReport(redactServer(server, redactor));
}

async function scanServer(
  target: Target,
  connect: ConnectOptions,
  opts: OneOptions,
  redact: Redactor,
): Promise<ServerReport> {
  let trusted = target.trusted === true || opts.trustMatcher.matches({ target: target.name });
  const base = { name: target.name, idempotencyCapability: false, trusted, tools: [], findings: [] };
  const planned = await planLaunch(target, {
    cacheDir: opts.cacheDir,
    sandbox: !!opts.sandbox,
    installErrors: opts.installErrors,
    redactArgs: (args) => redact.args(args),
  });
  if ('failure' in planned)
    return {
      ...base,
      status: 'failed',
      failure: planned.failure,
      target: describeTarget(target, planned.resolved, redact),
      durationMs: 0,
    };
  const launch: Launch = planned.plan;
  const { resolved, sandbox } = planned.plan;
  const packaged = planned.plan;

  const saved = target.transport === 'static';
  const obs = saved
    ? await (await import('./connect/saved.js')).observeSaved(target, connect)
    : await observe(launch, target.timeoutMs ? { ...connect, timeoutMs: target.timeoutMs } : connect).finally(
        packaged.cleanup,
      );
  const described = describeTarget(target, resolved, redact);
  const fakeEnv = [...(described.fakeEnv ?? []), ...(packaged.fakeEnv ?? [])];
  const target_ = { ...described, sandbox, digest: packaged.digest, fakeEnv: fakeEnv.length ? fakeEnv : undefined };
  // Stopped while this server was listed or closed: it is left out of the report, so classifying
  // it would only delay the stop.
  if (connect.signal?.aborted)
    return {
      ...base,
      status: 'failed',
      failure: { kind: 'interrupted', message: 'interrupted' },
      target: target_,
      durationMs: obs.durationMs,
    };
  if (obs.failure) {
    return {
      ...base,
      status: 'failed',
      failure: obs.failure,
      target: target_,
      protocol: obs.session && protocolOf(obs.session),
      serverInfo: serverInfoOf(obs.session?.serverInfo),
      capabilities: obs.session?.capabilities && boundedObject(obs.session.capabilities, LIMITS.capabilitiesJson),
      auth: obs.auth,
      durationMs: obs.durationMs,
      findings: obs.findings,
    };
  }
  const session = obs.session!;
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
  return {
    ...base,
    trusted,
    status: 'ok',
    target: target_,
    protocol: saved ? undefined : protocolOf(session), // nothing was negotiated
    serverInfo: serverInfoOf(session.serverInfo),
    capabilities: session.capabilities && boundedObject(session.capabilities, LIMITS.capabilitiesJson),
    idempotencyCapability: classified.idempotencyCapability,
    auth: obs.auth,
    durationMs: obs.durationMs,
    tools: classified.tools,
    findings: obs.findings.concat(classified.findings),
  };
}

/** Last line of defence: a bug tripped by one server's data must not lose the other servers. */
export function crashed(target: Target, err: unknown, shared: string[]): ServerReport {
  const server: ServerReport = {
    name: target.name,
    status: 'failed',
    failure: {
      kind: 'protocol',
      message: `idemscan could not process this server: ${bounded(String((err as Error)?.message ?? err), LIMITS.errorChars)}`,
    },
    target: { transport: target.transport, source: target.source },
    idempotencyCapability: false,
    durationMs: 0,
    tools: [],
    findings: [],
  };
  // The error may quote what the server sent: the same single pass as every other report.
  return redactServer(server, new Redactor({ ...target, secrets: [...(target.secrets ?? []), ...shared] }));
}

/**
 * Secrets every server's report is cleaned of, whatever server it belongs to: each token and
 * client secret of the token store this scan reads, and the command-line client secret. A server
 * that read (or was sent) another server's token must not publish it.
 */
export async function scanSecrets(cacheDir: string, oauth: Partial<OAuthScanOptions> | undefined): Promise<string[]> {
  return [...(await storedSecrets(cacheDir)), ...(oauth?.clientSecret ? [oauth.clientSecret] : [])];
}

/** Every stored token value, of the scan's cache dir and of the default one (a server may read either). */
async function storedSecrets(cacheDir: string): Promise<string[]> {
  const { readRecords, recordSecrets } = await import('./connect/oauth/store.js');
  return cacheDirs(cacheDir)
    .flatMap((dir) => readRecords(dir))
    .flatMap((r) => recordSecrets(r.record));
}

/** A redactor of the stored secrets that were not `known` before the scan, or undefined when there are none. */
export async function laterSecrets(cacheDir: string, known: string[]): Promise<Redactor | undefined> {
  const seen = new Set(known);
  const fresh = (await storedSecrets(cacheDir)).filter((s) => !seen.has(s));
  return fresh.length > 0 ? new Redactor({ secrets: fresh }) : undefined;
}

function protocolOf(session: Session): ServerReport['protocol'] {
  return {
    era: session.era,
    version: session.version,
    negotiation: session.notes.length ? session.notes.join('; ') : undefined,
  };
}
