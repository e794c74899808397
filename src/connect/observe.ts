/**
 * Connect to one target, negotiate, list its tools, and end it: always returns, never throws.
 * Whatever happens, the server's processes are gone when this resolves.
 */
import { DEFAULTS, LIMITS } from '../model/limits.js';
import { bounded, boundedTail } from '../model/bounds.js';
import type { Finding, Failure } from '../model/schema.js';
import type { Target } from '../targets/types.js';
import { sizeEstimate } from '../model/budget.js';
import { keptSession, ServerBudget } from './budget.js';
import type { Channel } from './channel.js';
import { memoKey, type EraMemo } from './era-memo.js';
import { ScanFailure } from './failure.js';
import type { HttpChannel } from './http.js';
import { listTools } from './list.js';
import { negotiate, type Session } from './negotiate.js';
import { RpcClient } from './rpc.js';
import { StdioChannel } from './stdio.js';
import { RULE } from '../model/catalogue.js';
import { finding } from '../model/finding.js';
import { plural } from '../model/verdicts.js';
import type { ServerAuth, OAuthScanOptions, TargetOAuth } from './oauth/server-auth.js';
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

/** A launch that is ready to run: npm targets already resolved to a command. */
export type Launch = Target & { command?: string; oauthClient?: TargetOAuth };

export async function observe(target: Launch, opts: ConnectOptions): Promise<Observation> {
  const started = performance.now();
  let deadline = Date.now() + opts.timeoutMs;
  const remainingMs = () => Math.max(1, deadline - Date.now());
  const obs: Observation = { tools: [], findings: [], durationMs: 0 };

  const attempt = async (channel: Channel, skipProbe?: string): Promise<void> => {
    const rpc = new RpcClient(channel);
    // The deadline and Ctrl-C stop whatever is awaited: a request, or a connection that never
    // finishes opening (an SSE stream that never announces its endpoint).
    let stop: (reason: ScanFailure) => void = () => {};
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    stopped.catch(() => {});
    const halt = (reason: ScanFailure) => {
      rpc.fail(reason);
      stop(reason);
    };
    const timer = setTimeout(() => halt(new ScanFailure('timeout', `no complete answer within ${opts.timeoutMs} ms (--timeout)`)), remainingMs());
    const onAbort = () => halt(new ScanFailure('interrupted', 'interrupted'));
    opts.signal?.addEventListener('abort', onAbort);
    const key = memoKey(target);
    try {
      if (opts.signal?.aborted) throw new ScanFailure('interrupted', 'interrupted');
      await Promise.race([channel.start(), stopped]);
      // Only the kept copy stays referenced: a 16 MB capabilities object is not held while listing.
      const session = keptSession(await negotiate(rpc, {
        probeTimeoutMs: opts.probeTimeoutMs,
        remainingMs,
        http: !(channel instanceof StdioChannel),
        answersEveryRequest: !(channel instanceof StdioChannel) && (channel as HttpChannel).kind === 'streamable',
        setVersion: (v) => channel.setProtocolVersion?.(v),
        skipProbe: skipProbe ?? (opts.eraMemo?.isSilentLegacy(key) ? 'remembered as silent before initialize: server/discover not sent' : undefined),
      }));
      const budget = new ServerBudget(opts.maxServerBytes);
      budget.charge(sizeEstimate([session.capabilities, session.serverInfo, session.notes]));
      obs.session = session;
      const listing = await listTools(rpc, session, { maxPages: opts.maxPages, maxTools: opts.maxTools, remainingMs, budget });
      // Still no answer to the probe after the whole listing: this server is silent before initialize.
      if (session.era === 'legacy' && (session.probeSilent?.() || skipProbe)) opts.eraMemo?.rememberSilentLegacy(key);
      obs.tools = listing.tools;
      obs.findings = obs.findings.concat(listing.findings);
      if (opts.afterList) {
        clearTimeout(timer);
        await opts.afterList({ rpc, session: obs.session, tools: listing.tools });
      }
    } catch (err) {
      // Before the close below: whether it was still starting is a question about it alive.
      throw err instanceof ScanFailure && err.kind === 'timeout' && !opts.signal?.aborted ? stillStarting(err, channel, opts.timeoutMs) : err;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      await channel.close();
      // Settles what is still in flight (a probe nobody waits for) and clears its timer.
      rpc.fail(new ScanFailure('exited', 'connection closed'));
    }
  };

  let stdio: StdioChannel | undefined;
  try {
    if (target.transport === 'stdio') {
      if (!target.command) throw new ScanFailure('spawn', 'no command to start');
      const start = () =>
        new StdioChannel({
          command: target.command!,
          args: target.args ?? [],
          env: target.env,
          cwd: target.cwd,
          maxFrameBytes: opts.maxFrameBytes,
          stderrTailBytes: opts.stderrTailBytes,
          killGraceMs: opts.killGraceMs,
        });
      stdio = start();
      try {
        await attempt(stdio);
      } catch (err) {
        // Some 2025-era servers exit on any first request but `initialize` (a strict reading of
        // the old lifecycle). Only for those, and once: a fresh process that never sees the probe.
        const exitedBeforeAnswering = err instanceof ScanFailure && err.kind === 'exited' && !obs.session;
        if (!exitedBeforeAnswering || opts.signal?.aborted || opts.eraMemo?.isSilentLegacy(memoKey(target)) || deadline - Date.now() < 1_000) throw err;
        stdio = start();
        await attempt(stdio, 'exited on server/discover without answering; started again and sent initialize only');
      }
    } else {
      // Loaded for HTTP targets only: it brings the SDK's auth client, most of a stdio scan's start-up.
      const { ServerAuth } = await import('./oauth/server-auth.js');
      const serverAuth = new ServerAuth(target.url!, opts.oauth, target.oauthClient, opts.signal);
      try {
        await attemptHttp(target, opts, attempt, serverAuth, (ms) => (deadline += ms));
      } catch (err) {
        throw serverAuth.explain(err);
      } finally {
        obs.auth = await serverAuth.describe(remainingMs()).catch(() => undefined);
        opts.secrets?.push(...serverAuth.secrets());
      }
    }
  } catch (err) {
    const failure = err instanceof ScanFailure ? err : new ScanFailure('protocol', (err as Error)?.message ?? String(err));
    obs.failure = { kind: failure.kind, message: failure.message };
  }
  if (stdio) {
    if (obs.failure?.kind === 'timeout' && !obs.session && stdio.noise.lines > 0) {
      // It did talk, just not JSON-RPC: that is a protocol failure, not a slow server.
      obs.failure = { kind: 'protocol', message: `no JSON-RPC answer; ${plural(stdio.noise.lines, 'line')} on stdout ${stdio.noise.lines === 1 ? 'was' : 'were'} something else` };
    }
    const tail = stdio.stderrTail.text().trim();
    // A listing cut short by a crash: its stderr says why.
    const incomplete = obs.findings.find((f) => f.rule === RULE.toolListIncomplete);
    if (incomplete && tail) incomplete.message += `; stderr ends: ${boundedTail(tail, LIMITS.quotedChars)}`;
    if (obs.failure && tail) obs.failure.stderr = tail;
    if (stdio.noise.lines > 0) {
      obs.findings.push(finding(
        RULE.stdoutNoise,
        `${plural(stdio.noise.lines, 'line')} on stdout ${stdio.noise.lines === 1 ? 'was' : 'were'} not JSON-RPC (first: ${JSON.stringify(stdio.noise.first)}); stdout is reserved for protocol messages`,
        { evidence: 'stdout' },
      ));
    }
  }
  obs.durationMs = Math.round(performance.now() - started);
  return obs;
}

/**
 * A server still starting when time ran out (alive, nothing on stdout yet: a download, a slow
 * runtime) is told apart from one that answered and then stalled: only the first is helped by
 * more time.
 */
function stillStarting(timeout: ScanFailure, channel: Channel, timeoutMs: number): ScanFailure {
  if (!(channel instanceof StdioChannel) || !channel.starting) return timeout;
  return new ScanFailure('timeout', `no answer within ${timeoutMs / 1000} s; it was still starting: try --timeout ${Math.max(60_000, timeoutMs * 2)}`);
}

/**
 * A server that needs a sign-in, in a scan that may start one (`--oauth`), is tried again once
 * signed in; the time the person took at the browser is added to the server's deadline.
 */
async function attemptHttp(
  target: Launch,
  opts: ConnectOptions,
  attempt: (c: Channel) => Promise<void>,
  serverAuth: ServerAuth,
  extendDeadline: (ms: number) => void,
): Promise<void> {
  try {
    await attemptTransports(target, opts, attempt, serverAuth);
  } catch (err) {
    if (!serverAuth.canSignIn) throw err;
    const started = Date.now();
    try {
      await serverAuth.signIn();
    } catch (signInErr) {
      throw new ScanFailure('auth', `sign-in failed: ${bounded(String((signInErr as Error)?.message ?? signInErr), LIMITS.errorChars)}`);
    } finally {
      extendDeadline(Date.now() - started);
    }
    await attemptTransports(target, opts, attempt, serverAuth);
  }
}

/** Streamable HTTP first; a server that refuses it with 404/405 gets the older HTTP+SSE transport. */
async function attemptTransports(target: Launch, opts: ConnectOptions, attempt: (c: Channel) => Promise<void>, serverAuth: ServerAuth): Promise<void> {
  // Loaded here, not at the top: the SDK's HTTP transports are most of idemscan's start-up cost,
  // and a stdio-only scan never needs them.
  const { HttpChannel } = await import('./http.js');
  const make = (kind: 'streamable' | 'sse') =>
    new HttpChannel({
      url: target.url!,
      headers: target.headers,
      kind,
      maxBodyBytes: opts.maxFrameBytes,
      authProvider: serverAuth.transportAuth(),
      onResponse: (res) => serverAuth.observe(res),
    });
  if (target.transport === 'sse') return attempt(make('sse'));
  try {
    await attempt(make('streamable'));
  } catch (err) {
    if (!(err instanceof ScanFailure) || err.kind !== 'protocol' || !/HTTP 40[45]\b/.test(err.message)) throw err;
    await attempt(make('sse'));
  }
}
