/**
 * The library core: targets in, a report out. Never prints, never exits; every per-server
 * problem is a value in the report.
 */
import { DEFAULTS, LIMITS } from './model/limits.js';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import pLimit from 'p-limit';
import { classifyServer } from './classify/index.js';
import type { LoadedProfile } from './classify/profiles/index.js';
import type { Session } from './connect/negotiate.js';
import { EraMemo } from './connect/era-memo.js';
import { DEFAULT_CONNECT_OPTIONS, observe, type ConnectOptions, type Launch } from './connect/observe.js';
import type { OAuthScanOptions } from './connect/oauth/server-auth.js';
import { bounded, boundedObject, serverInfoOf } from './model/bounds.js';
import { fitServerReport } from './model/budget.js';
import type { Report, ServerReport } from './model/schema.js';
import { SCHEMA_VERSION } from './model/schema-version.js';
import { checkOptions, checkTargets } from './scan-input.js';
import { summarize } from './model/summary.js';
import { defaultCacheDir } from './targets/cache-dir.js';
import { cacheContainment, cacheDirs, installHint, type InstallResult } from './targets/npm.js';
import { installMissing, missingTargets, packageOf, packageProblems } from './targets/packages.js';
import { describeTarget, Redactor } from './redact/redact.js';
import { npmLaunchTargets, resolveUnpinned, withResolved } from './targets/npm-launch.js';
import { pypiLaunchTargets, pypiProblem } from './targets/pypi-launch.js';
import { redactServer } from './redact/redact-report.js';
import { NameMatcher } from './targets/server-names.js';
import { contain, defaultSupport, sandboxSupport, type SandboxMode } from './targets/sandbox.js';
import type { Shard } from './targets/shard.js';
import type { SkippedTarget, Target } from './targets/types.js';
import { TOOL_NAME, TOOL_VERSION } from './model/version.js';

export interface ScanOptions extends Partial<Omit<ConnectOptions, 'oauth'>> {
  /** OAuth for HTTP servers (docs/OAUTH.md). Stored tokens are used even without it; a sign-in only with `interactive`. */
  oauth?: Partial<OAuthScanOptions>;
  concurrency?: number;
  /** Servers reached over HTTP at once (waiting on the network, not the CPU): a pool of their own. */
  httpConcurrency?: number;
  /** Install pinned packages (npm, PyPI, .mcpb, OCI) that are not in the cache yet (needs their registries). */
  install?: boolean;
  /** PyPI: let pip (or uv) build source distributions, which runs the package's build code at install time. */
  allowSdist?: boolean;
  cacheDir?: string;
  /** Run stdio servers in bubblewrap (or, without it, a loopback-only network namespace). */
  sandbox?: boolean;
  /**
   * Server names whose hints the user trusts (as `trusted: true` on a Target): a target's name, in
   * any case; with `trustServerInfo`, also the name the server gives itself (serverInfo.name).
   */
  trust?: string[];
  /**
   * `trust` also matches serverInfo.name: only where the caller shows servers by that name (audit of
   * one server without --name). In a list any server can call itself by a trusted name.
   */
  trustServerInfo?: boolean;
  skipped?: SkippedTarget[];
  /** Profiles each tool is checked against (`--profile`), recorded in report.options.profiles. */
  profiles?: LoadedProfile[];
  /** Recorded in report.options when the targets are one shard of a list (`scan --shard I/N`). */
  shard?: Shard;
  onProgress?: (event: ProgressEvent) => void;
  /** Stops the scan: running servers are ended, unstarted ones skipped, the report says so. */
  signal?: AbortSignal;
  /** With `afterList` (`idemscan probe`): adds what it found to a server's report, before redaction. */
  attach?: (server: ServerReport) => void;
}

export type ProgressEvent =
  | { type: 'install'; packages: string[]; cacheDir: string }
  /** One package of the `install` event has finished (installed, failed or interrupted). */
  | { type: 'installed'; result: InstallResult }
  /** Something the user should know once, in one line (e.g. --sandbox falling back to less). */
  | { type: 'warning'; message: string }
  | { type: 'start'; target: string; index: number; total: number }
  /** `index` counts the servers done so far; `target` is the position of the server's target, as in `start`. */
  | { type: 'done'; server: ServerReport; index: number; total: number; target?: number };

/** The pipeline, in steps: check the input, prepare the targets (resolve, install), scan each, make the report. */
export async function scan(listed: Target[], options: ScanOptions = {}): Promise<Report> {
  // Malformed input is the caller's mistake, not a server's failure: a ScanInputError, before any work.
  checkTargets(listed);
  checkOptions(options);
  const startedAt = new Date();
  if (options.signal) setMaxListeners(0, options.signal); // one abort listener per running server, by design
  const connect: ConnectOptions = { ...DEFAULT_CONNECT_OPTIONS, ...definedOnly(options), afterList: options.afterList };
  const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
  const httpConcurrency = Math.max(1, options.httpConcurrency ?? DEFAULTS.httpConcurrency);
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const prepared = await prepareTargets(listed, options, cacheDir, concurrency);
  const scanStarted = performance.now();
  const servers = await scanAll(prepared, connect, options, cacheDir, { stdio: concurrency, http: httpConcurrency });
  const { targets, specs, installs } = prepared;
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options: {
      concurrency,
      httpConcurrency,
      timeoutMs: connect.timeoutMs,
      probeTimeoutMs: connect.probeTimeoutMs,
      maxPages: connect.maxPages,
      sandbox: options.sandbox ?? false,
      trust: options.trust ?? [],
      ...(options.signal?.aborted ? { interrupted: true, scanned: servers.length, targets: targets.length } : {}),
      ...(options.profiles?.length ? { profiles: await profileUses(options.profiles) } : {}),
      ...(options.shard ? { shard: { index: options.shard.index, count: options.shard.count } } : {}),
    },
    summary: summarize(servers),
    servers,
    skipped: options.skipped?.length ? options.skipped : undefined,
    manifest: {
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      packages: [...new Set(specs)].sort(),
      installs: installs.length ? installs.map(({ spec, ok, ms }) => ({ spec, ok, ms })) : undefined,
      scanMs: Math.round(performance.now() - scanStarted),
    },
  };
}

interface Prepared {
  targets: Target[];
  /** The package specs the targets launch. */
  specs: string[];
  /** Why a package cannot run, by spec: resolution, checks and installs that failed. */
  installErrors: Map<string, string>;
  installs: InstallResult[];
}

/** Runners as package targets, unpinned ones resolved, packages checked and (with `install`) installed. */
async function prepareTargets(
  listed: Target[],
  options: ScanOptions,
  cacheDir: string,
  concurrency: number,
): Promise<Prepared> {
  const warn = (message: string) => options.onProgress?.({ type: 'warning', message });
  // `npx -y pkg`, `uvx pkg==1.2.3` and the like run from the cache like npm targets; unpinned npm ones get a version first.
  const launched = pypiLaunchTargets(npmLaunchTargets(listed));
  const resolution = await resolveUnpinned(launched, !!options.install, cacheDir, options.signal);
  const targets = withResolved(launched, resolution);
  const stdio = targets.some((t) => t.transport === 'stdio');
  const sandboxNote = options.sandbox ? sandboxSupport().note : stdio ? defaultSupport().note : undefined;
  if (sandboxNote) warn(sandboxNote);
  const specs = targets.map((t) => packageOf(t)?.spec).filter((s): s is string => s !== undefined);
  // Target files are checked when read; a library caller's own targets are checked here, before npm or pip runs.
  const installErrors = new Map(resolution.errors);
  packageProblems(targets, installErrors);
  const missing = [...new Set(missingTargets(targets, cacheDir, installErrors).map((t) => packageOf(t)!.spec))];
  const install = missing.length > 0 && !!options.install;
  if (install) options.onProgress?.({ type: 'install', packages: missing, cacheDir });
  if (options.allowSdist && targets.some((t) => t.pypi)) warn(SDIST_WARNING);
  const onDone = (result: InstallResult) => options.onProgress?.({ type: 'installed', result });
  const ctx = { cacheDir, concurrency, signal: options.signal, onDone, allowSdist: options.allowSdist };
  const installs = install ? await installMissing(targets, ctx, installErrors) : [];
  for (const r of installs) if (!r.ok) installErrors.set(r.spec, r.error ?? 'install failed');
  for (const r of installs) if (r.note) warn(r.note);
  return { targets, specs, installErrors, installs };
}

/** Every target through the pool, `concurrency` at once; each report redacted as it finishes, and again for tokens stored meanwhile. */
async function scanAll(
  prepared: Prepared,
  connect: ConnectOptions,
  options: ScanOptions,
  cacheDir: string,
  pools: { stdio: number; http: number },
): Promise<ServerReport[]> {
  const { targets, installErrors } = prepared;
  const eraMemo = EraMemo.load(cacheDir);
  const oauth: OAuthScanOptions = { timeoutMs: DEFAULTS.signInTimeoutMs, print: () => {}, ...options.oauth, cacheDir };
  const shared = await scanSecrets(cacheDir, options.oauth);
  // A stdio server's start-up is CPU; a remote's listing is waiting: one pool each.
  const stdioLimit = pLimit(pools.stdio);
  const httpLimit = pLimit(pools.http);
  const trust = new NameMatcher(options.trust);
  const one = { ...options, cacheDir, installErrors, shared, trustMatcher: trust };
  let done = 0;
  const results = await Promise.all(
    targets.map((target, index) =>
      (target.transport === 'stdio' ? stdioLimit : httpLimit)(async () => {
        if (options.signal?.aborted) return undefined;
        options.onProgress?.({ type: 'start', target: target.name, index, total: targets.length });
        const server = await scanOne(target, { ...connect, eraMemo, signal: options.signal, oauth }, one).catch(
          (err: unknown) => crashed(target, err, shared),
        );
        // A server cut short by Ctrl-C did not fail: it was not scanned. One that finished as the
        // signal came was scanned, and is kept.
        if (options.signal?.aborted && server.status === 'failed') return undefined;
        options.onProgress?.({ type: 'done', server, index: done++, total: targets.length, target: index });
        return server;
      }),
    ),
  );
  eraMemo.save(cacheDir);
  // Tokens stored while the pool ran (a sign-in, a grant) were not in the set each report was
  // redacted with as it finished, and a server that ran later may have read them from the store.
  const later = await laterSecrets(cacheDir, shared);
  const servers = results
    .filter((s): s is ServerReport => s !== undefined)
    .map((s) => (later ? redactServer(s, later) : s));
  // A trusted name that found no server is most often a typo; in a shard the rest are elsewhere.
  const untrusted = options.signal?.aborted || options.shard ? [] : trust.unmatched();
  if (untrusted.length > 0)
    options.onProgress?.({ type: 'warning', message: unmatchedTrust(untrusted, servers, !!options.trustServerInfo) });
  return servers;
}

export const SDIST_WARNING =
  '--allow-sdist: PyPI packages without a wheel are built from source, which runs their build code (setup.py, build backends) at install time, outside any sandbox, with the network';

interface OneOptions extends ScanOptions {
  cacheDir: string;
  installErrors: Map<string, string>;
  /** Redacted from every server's report (scanSecrets). */
  shared: string[];
  trustMatcher: NameMatcher;
}

/** `trusted name "notse" matches no server scanned (their names: notes, node or legacy-payments)`. */
function unmatchedTrust(names: string[], servers: ServerReport[], byServerInfo: boolean): string {
  const nameOf = (s: ServerReport) => {
    const own = byServerInfo ? s.serverInfo?.name?.trim() : undefined;
    return own && own !== s.name ? `${s.name} or ${own}` : s.name;
  };
  const shown = servers.slice(0, 10).map(nameOf);
  const more = servers.length > shown.length ? `, and ${servers.length - shown.length} more` : '';
  const quoted = names.map((n) => `"${bounded(n, 100)}"`).join(', ');
  const which = names.length === 1 ? `trusted name ${quoted} matches` : `trusted names ${quoted} match`;
  return `${which} no server scanned${servers.length ? ` (their names: ${shown.join(', ')}${more})` : ''}`;
}

async function scanOne(target: Target, connect: ConnectOptions, opts: OneOptions): Promise<ServerReport> {
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
  let launch: Launch = target;
  let resolved: string | undefined;
  let sandbox: SandboxMode | 'container' | undefined;
  let packaged: { digest?: string; fakeEnv?: string[] } = {};
  try {
    const pkg = packageOf(target);
    let own = cacheContainment(opts.cacheDir);
    let container = false;
    if (pkg) {
      const unavailable = pkg.kind.unavailable?.();
      if (unavailable) throw new Error(unavailable);
      const installError = opts.installErrors.get(pkg.spec);
      if (installError) throw new Error(`${pkg.spec} was not installed: ${installError}`);
      if (!pkg.kind.installed(target, opts.cacheDir))
        throw new Error(`${pkg.spec} is not installed: run \`${installHint(target.source, opts.cacheDir)}\` first`);
      const ready = await pkg.kind.launch(target, opts.cacheDir);
      launch = {
        ...target,
        command: ready.command,
        args: ready.args,
        env: ready.env ? { ...ready.env, ...target.env } : target.env,
      };
      resolved = [launch.command, ...redact.args(launch.args ?? [])].join(' ');
      own = { ...own, readable: ready.readable };
      container = !!ready.container;
      packaged = { digest: ready.digest, fakeEnv: ready.fakeEnv };
    }
    // Its download would need the network the sandbox takes away: said at once, not after --timeout.
    const pypi = opts.sandbox ? pypiProblem(target) : undefined;
    if (pypi) throw new Error(pypi);
    if (launch.transport === 'stdio' && launch.command) {
      // A container is contained by its engine; bubblewrap would hide the engine's socket.
      const contained = contain(
        { command: launch.command, args: launch.args ?? [], cwd: launch.cwd },
        { sandbox: !!opts.sandbox && !container, ...own },
      );
      launch = { ...launch, command: contained.command, args: contained.args };
      sandbox = container ? 'container' : contained.sandbox;
    }
  } catch (err) {
    return {
      ...base,
      status: 'failed',
      failure: { kind: 'spawn', message: (err as Error).message },
      target: { ...describeTarget(target, resolved, redact), sandbox },
      durationMs: 0,
    };
  }

  if (target.oauth) launch = { ...launch, oauthClient: oauthClientOf(target) };
  const saved = target.transport === 'static';
  const obs = saved
    ? await (await import('./connect/saved.js')).observeSaved(target, connect)
    : await observe(launch, target.timeoutMs ? { ...connect, timeoutMs: target.timeoutMs } : connect);
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
function crashed(target: Target, err: unknown, shared: string[]): ServerReport {
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

/** A target's `oauth` entry: a public client id and scopes (a client secret comes only from the command line). */
function oauthClientOf(target: Target): Launch['oauthClient'] {
  const o = target.oauth!;
  return { clientId: o.clientId, scopes: o.scopes };
}

/**
 * Secrets every server's report is cleaned of, whatever server it belongs to: each token and
 * client secret of the token store this scan reads, and the command-line client secret. A server
 * that read (or was sent) another server's token must not publish it.
 */
async function scanSecrets(cacheDir: string, oauth: Partial<OAuthScanOptions> | undefined): Promise<string[]> {
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
async function laterSecrets(cacheDir: string, known: string[]): Promise<Redactor | undefined> {
  const seen = new Set(known);
  const fresh = (await storedSecrets(cacheDir)).filter((s) => !seen.has(s));
  return fresh.length > 0 ? new Redactor({ secrets: fresh }) : undefined;
}

function definedOnly(options: ScanOptions): Partial<ConnectOptions> {
  const keys = Object.keys(DEFAULT_CONNECT_OPTIONS) as (keyof ConnectOptions)[];
  return Object.fromEntries(keys.filter((k) => options[k] !== undefined).map((k) => [k, options[k]]));
}

function protocolOf(session: Session): ServerReport['protocol'] {
  return {
    era: session.era,
    version: session.version,
    negotiation: session.notes.length ? session.notes.join('; ') : undefined,
  };
}

/** report.options.profiles. Loaded only with --profile: the profile schemas are zod, built at import. */
async function profileUses(profiles: LoadedProfile[]): Promise<NonNullable<Report['options']['profiles']>> {
  const { profileUse } = await import('./classify/profiles/index.js');
  return profiles.map(profileUse);
}
