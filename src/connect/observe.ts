/**
 * Connect to one target, negotiate, list its tools, and end it: always returns, never throws.
 * Whatever happens, the server's processes are gone when this resolves, unless `closes` is given:
 * then a listed stdio server may still be ending, and `closes` holds that close.
 */
import { DEFAULTS, LIMITS } from '../model/limits.js';
import { bounded, boundedTail } from '../model/bounds.js';
import type { Finding, Failure } from '../model/schema.js';
import type { LaunchPlan } from '../launch/plan.js';
import { sizeEstimate } from '../model/budget.js';
import { keptSession, ServerBudget } from './budget.js';
import type { Channel } from './channel.js';
import { memoKey, type EraMemo } from './era-memo.js';
import { ScanFailure } from './failure.js';
import type { PendingCloses } from './closes.js';
import { listTools } from './list.js';
import { negotiate, type Session } from './negotiate.js';
import { RpcClient } from './rpc.js';
import { StdioChannel } from './stdio.js';
import { RETRY } from './retry-policy.js';
import { RULE } from '../model/catalogue.js';
import { finding } from '../model/finding.js';
import { plural } from '../model/verdicts.js';
import type { ServerAuth, OAuthScanOptions } from './oauth/server-auth.js';
import type { AuthInfo } from '../model/schema.js';

export interface ConnectOptions {
  /** From spawn (or first request) to the last page. */
  timeoutMs: number;
  probeTimeoutMs: number;
  maxPages: number;
  maxTools: number;
  maxFrameBytes: number;
  /**
   * What may be kept of one server in all (tool entries with their schemas, cursors, capabilities,
   * serverInfo, notes), in estimated heap bytes; listing stops with a `memory-budget` finding there.
   */
  maxServerBytes: number;
  stderrTailBytes: number;
  killGraceMs: number;
  /** Launches known to stay silent until `initialize` (mutated: new verdicts are added). */
  eraMemo?: EraMemo;
  /** Aborting ends this server's scan at once (Ctrl-C). */
  signal?: AbortSignal;
  /** OAuth for HTTP servers (stored tokens, --oauth, --stored-auth-only); absent: none at all. */
  oauth?: OAuthScanOptions;
  /** Filled with the OAuth secrets seen for this server, for the report's redaction. */
  secrets?: string[];
  /**
   * Runs on the open connection once the tools are listed, before it is closed (`idemscan probe`
   * only; scan and audit never set it). Its requests carry their own deadlines: --timeout no longer
   * bounds the connection, Ctrl-C still does. It must not throw.
   */
  afterList?: (open: OpenSession) => Promise<void>;
  /**
   * Given: a stdio server listed in full is closed in the background, added here, and `observe()`
   * resolves without waiting for its exit; the caller awaits `closes.settled()` before it is done.
   */
  closes?: PendingCloses;
}

/** A negotiated connection and its listing, as `afterList` gets it. */
export interface OpenSession {
  rpc: RpcClient;
  session: Session;
  /** The tools as listed, raw. */
  tools: Record<string, unknown>[];
}

/** The connection's share of DEFAULTS (model/limits.ts). */
export const DEFAULT_CONNECT_OPTIONS: ConnectOptions = {
  timeoutMs: DEFAULTS.timeoutMs,
  probeTimeoutMs: DEFAULTS.probeTimeoutMs,
  maxPages: DEFAULTS.maxPages,
  maxTools: DEFAULTS.maxTools,
  maxFrameBytes: DEFAULTS.maxFrameBytes,
  maxServerBytes: DEFAULTS.maxServerBytes,
  stderrTailBytes: DEFAULTS.stderrTailBytes,
  killGraceMs: DEFAULTS.killGraceMs,
};

export interface Observation {
  session?: Session;
  tools: Record<string, unknown>[];
  findings: Finding[];
  failure?: Failure;
  /** What an HTTP server that refused a request published about its authorization. */
  auth?: AuthInfo;
  durationMs: number;
}

/** A target's launch plan (launch/plan.ts): a stdio process already in its containment, or a URL with its OAuth client. */
export type Launch = LaunchPlan;

/** The HTTP path's launch: observe() sends it only what is not stdio, and a saved list never. */
function remoteOf(launch: Launch): Extract<Launch, { transport: 'http' | 'sse' }> {
  if (launch.transport === 'stdio' || launch.transport === 'static') throw new ScanFailure('spawn', 'no URL to reach');
  return launch;
}

/**
 * One server, start to end: spawn (or open) -> negotiate -> list, each attempt on a fresh
 * connection, the next attempt only as retry-policy.ts allows. Never throws.
 */
export async function observe(target: Launch, opts: ConnectOptions): Promise<Observation> {
  const started = performance.now();
  const run = new Run(target, opts);
  try {
    if (target.transport === 'stdio') await observeStdio(run);
    else await observeHttp(run);
  } catch (err) {
    const failure =
      err instanceof ScanFailure ? err : new ScanFailure('protocol', (err as Error)?.message ?? String(err));
    run.obs.failure = { kind: failure.kind, message: failure.message };
  }
  if (run.stdio) explainStdio(run.obs, run.stdio);
  run.obs.durationMs = Math.round(performance.now() - started);
  return run.obs;
}

/** What one server's attempts share: its target, options, deadline and what was seen so far. */
class Run {
  readonly obs: Observation = { tools: [], findings: [], durationMs: 0 };
  deadline: number;
  /** The stdio process of the latest attempt: its streams explain the outcome. */
  stdio?: StdioChannel;
  constructor(
    readonly target: Launch,
    readonly opts: ConnectOptions,
  ) {
    this.deadline = Date.now() + opts.timeoutMs;
  }
  remainingMs = (): number => Math.max(1, this.deadline - Date.now());
}

/** Spawn our own process; started once more without the probe if the retry policy says so. */
async function observeStdio(run: Run): Promise<void> {
  const { target, opts } = run;
  if (target.transport !== 'stdio') throw new ScanFailure('spawn', 'no command to start');
  const start = () =>
    new StdioChannel({
      command: target.command,
      args: target.args,
      env: target.spawnEnv,
      cwd: target.cwd,
      maxFrameBytes: opts.maxFrameBytes,
      stderrTailBytes: opts.stderrTailBytes,
      killGraceMs: opts.killGraceMs,
    });
  run.stdio = start();
  try {
    await attempt(run, run.stdio);
  } catch (err) {
    const restart = RETRY.restartWithoutProbe(err, {
      target: run.target,
      opts: run.opts,
      listed: !!run.obs.session,
      remainingMs: run.deadline - Date.now(),
    });
    if (!restart) throw err;
    run.stdio = start();
    await attempt(run, run.stdio, restart);
  }
}

/** The SDK's HTTP transports, with the server's authorization (loaded for HTTP targets only). */
async function observeHttp(run: Run): Promise<void> {
  // Loaded here: it brings the SDK's auth client, most of a stdio scan's start-up.
  const { ServerAuth } = await import('./oauth/server-auth.js');
  const { opts } = run;
  const target = remoteOf(run.target);
  const serverAuth = new ServerAuth(target.url, opts.oauth, target.oauthClient, opts.signal);
  try {
    await attemptHttp(run, serverAuth);
  } catch (err) {
    throw serverAuth.explain(err);
  } finally {
    run.obs.auth = await serverAuth.describe(run.remainingMs()).catch(() => undefined);
    opts.secrets?.push(...serverAuth.secrets());
  }
}

/** One connection: open it, negotiate, list; the deadline and Ctrl-C stop whatever is awaited. */
async function attempt(run: Run, channel: Channel, skipProbe?: string): Promise<void> {
  const { opts, obs } = run;
  const rpc = new RpcClient(channel);
  const stop = stopOn(rpc, run);
  let listed = false;
  try {
    if (opts.signal?.aborted) throw new ScanFailure('interrupted', 'interrupted');
    await Promise.race([channel.start(), stop.stopped]);
    const session = await negotiateSession(run, rpc, channel, skipProbe);
    obs.session = session;
    const budget = new ServerBudget(opts.maxServerBytes);
    budget.charge(sizeEstimate([session.capabilities, session.serverInfo, session.notes]));
    const listing = await listTools(rpc, session, {
      maxPages: opts.maxPages,
      maxTools: opts.maxTools,
      remainingMs: run.remainingMs,
      budget,
    });
    // Still no answer to the probe after the whole listing: this server is silent before initialize.
    if (session.era === 'legacy' && (session.probeSilent?.() || skipProbe))
      opts.eraMemo?.rememberSilentLegacy(memoKey(run.target));
    obs.tools = listing.tools;
    obs.findings = obs.findings.concat(listing.findings);
    if (opts.afterList) {
      stop.clearDeadline();
      await opts.afterList({ rpc, session, tools: listing.tools });
    }
    listed = true;
  } catch (err) {
    // Before the close below: whether it was still starting is a question about it alive.
    throw err instanceof ScanFailure && err.kind === 'timeout' && !opts.signal?.aborted
      ? stillStarting(err, channel, opts.timeoutMs)
      : err;
  } finally {
    stop.dispose();
    // Settles what is still in flight (a probe nobody waits for) and clears its timer.
    const close = channel.close().then(() => rpc.fail(new ScanFailure('exited', 'connection closed')));
    if (listed && opts.closes && closesUnread(channel, obs)) opts.closes.add(close);
    else await close;
  }
}

/**
 * Whether nothing the report says is read while, or after, this server stops: then it may end in
 * the background. Its stdout is no longer read once closing (stdio.ts), and its stderr only for a
 * failure or a listing cut short (explainStdio), whose last words may come as it stops: those are
 * closed before `observe()` resolves, as is HTTP (one request, no process to reap).
 */
function closesUnread(channel: Channel, obs: Observation): boolean {
  return channel.kind === 'stdio' && !obs.failure && !obs.findings.some((f) => f.rule === RULE.toolListIncomplete);
}

/** The deadline and the signal, as one promise that rejects (and fails every pending request). */
function stopOn(rpc: RpcClient, run: Run) {
  let stop: (reason: ScanFailure) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {});
  const halt = (reason: ScanFailure) => {
    rpc.fail(reason);
    stop(reason);
  };
  const timer = setTimeout(
    () => halt(new ScanFailure('timeout', `no complete answer within ${run.opts.timeoutMs} ms (--timeout)`)),
    run.remainingMs(),
  );
  const onAbort = () => halt(new ScanFailure('interrupted', 'interrupted'));
  run.opts.signal?.addEventListener('abort', onAbort);
  return {
    stopped,
    clearDeadline: () => clearTimeout(timer),
    dispose: () => {
      run.opts.signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    },
  };
}

/** Era negotiation; only the kept copy stays referenced (a 16 MB capabilities object is not held while listing). */
async function negotiateSession(
  run: Run,
  rpc: RpcClient,
  channel: Channel,
  skipProbe: string | undefined,
): Promise<Session> {
  const remembered = run.opts.eraMemo?.isSilentLegacy(memoKey(run.target));
  return keptSession(
    await negotiate(rpc, {
      probeTimeoutMs: run.opts.probeTimeoutMs,
      remainingMs: run.remainingMs,
      http: channel.kind !== 'stdio',
      answersEveryRequest: channel.kind === 'streamable',
      setVersion: (v) => channel.setProtocolVersion?.(v),
      skipProbe:
        skipProbe ?? (remembered ? 'remembered as silent before initialize: server/discover not sent' : undefined),
    }),
  );
}

/** What a stdio server's own streams tell: not JSON-RPC on stdout, and why it ended (stderr). */
function explainStdio(obs: Observation, stdio: StdioChannel): void {
  const noise = stdio.noise.lines;
  const were = noise === 1 ? 'was' : 'were';
  if (obs.failure?.kind === 'timeout' && !obs.session && noise > 0) {
    // It did talk, just not JSON-RPC: that is a protocol failure, not a slow server.
    obs.failure = {
      kind: 'protocol',
      message: `no JSON-RPC answer; ${plural(noise, 'line')} on stdout ${were} something else`,
    };
  }
  const tail = stdio.stderrTail.text().trim();
  // A listing cut short by a crash: its stderr says why.
  const incomplete = obs.findings.find((f) => f.rule === RULE.toolListIncomplete);
  if (incomplete && tail) incomplete.message += `; stderr ends: ${boundedTail(tail, LIMITS.quotedChars)}`;
  if (obs.failure && tail) obs.failure.stderr = tail;
  if (noise > 0) {
    const first = JSON.stringify(stdio.noise.first);
    const message = `${plural(noise, 'line')} on stdout ${were} not JSON-RPC (first: ${first}); stdout is reserved for protocol messages`;
    obs.findings.push(finding(RULE.stdoutNoise, message, { evidence: 'stdout' }));
  }
}

/**
 * A server still starting when time ran out (alive, nothing on stdout yet: a download, a slow
 * runtime) is told apart from one that answered and then stalled: only the first is helped by
 * more time.
 */
function stillStarting(timeout: ScanFailure, channel: Channel, timeoutMs: number): ScanFailure {
  if (!channel.starting) return timeout;
  return new ScanFailure(
    'timeout',
    `no answer within ${timeoutMs / 1000} s; it was still starting: try --timeout ${Math.max(60_000, timeoutMs * 2)}`,
  );
}

/** HTTP: the transports in turn, and once more signed in when the retry policy says so. */
async function attemptHttp(run: Run, serverAuth: ServerAuth): Promise<void> {
  try {
    await attemptTransports(run, serverAuth);
  } catch (err) {
    if (!RETRY.signInAndRetry(serverAuth)) throw err;
    const started = Date.now();
    try {
      await serverAuth.signIn();
    } catch (signInErr) {
      throw new ScanFailure(
        'auth',
        `sign-in failed: ${bounded(String((signInErr as Error)?.message ?? signInErr), LIMITS.errorChars)}`,
      );
    } finally {
      run.deadline += Date.now() - started; // the time the person took at the browser
    }
    await attemptTransports(run, serverAuth);
  }
}

/** Streamable HTTP first, then HTTP+SSE when the retry policy says so (`sse` targets: SSE only). */
async function attemptTransports(run: Run, serverAuth: ServerAuth): Promise<void> {
  // Loaded here, not at the top: the SDK's HTTP transports are most of idemscan's start-up cost,
  // and a stdio-only scan never needs them.
  const { HttpChannel } = await import('./http.js');
  const { opts } = run;
  const target = remoteOf(run.target);
  const make = (kind: 'streamable' | 'sse') =>
    new HttpChannel({
      url: target.url,
      headers: target.headers,
      kind,
      maxBodyBytes: opts.maxFrameBytes,
      authProvider: serverAuth.transportAuth(),
      onResponse: (res) => serverAuth.observe(res),
    });
  if (target.transport === 'sse') return attempt(run, make('sse'));
  try {
    await attempt(run, make('streamable'));
  } catch (err) {
    if (!RETRY.fallBackToSse(err)) throw err;
    await attempt(run, make('sse'));
  }
}
