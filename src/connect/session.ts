/** One server's session: attempts as retry-policy.ts allows, within one deadline; every failure is a value. */
import { sizeEstimate } from '../model/budget.js';
import { RULE } from '../model/catalogue.js';
import type { Failure } from '../model/schema.js';
import { httpAttempts, stdioAttempts, type Attempt, type Attempts, type AttemptRun } from './attempts.js';
import { ServerBudget } from './budget.js';
import { endConnection, negotiateSession, stopOn, type Connection } from './connection.js';
import type { Channel } from './channel.js';
import type { LaunchPlan } from '../launch/plan.js';
import { remoteOf, type ConnectOptions, type Observation } from './connect-options.js';
import { memoKey } from './era-memo.js';
import { explainStdio, stillStarting } from './explain.js';
import { ScanFailure } from './failure.js';
import { listTools } from './list.js';
import { modernMeta, type Negotiated } from './negotiate.js';
import type { ServerAuth } from './oauth/server-auth.js';
import { RpcClient, type RpcOutcome } from './rpc.js';
import { StdioChannel } from './stdio.js';

export interface Session {
  readonly server: Negotiated;
  /** Every page; once listed, only the signal bounds the session (a `call` has its own bound). */
  listTools(): Promise<Listed>;
  /** One request on the open connection (a modern one with its `_meta` envelope), always a value. */
  call(method: string, params: Record<string, unknown>, opts: CallOptions): Promise<Called>;
  close(): Promise<Observation>;
}

type Listed = { ok: true; tools: Record<string, unknown>[] } | { ok: false; failure: Failure };

interface CallOptions {
  timeoutMs: number;
  /** On the wire at most once (channel.ts `SendOptions`). */
  once?: boolean;
}

/** `id`: the JSON-RPC id the request carried. */
type Called = { id: number; outcome: RpcOutcome } | { id: number; failure: ScanFailure };

/** A session, or why there is none: the observation of a server that could not be reached. */
export type Opened = { ok: true; session: Session } | { ok: false; observation: Observation };

/** Never throws; once `close()` resolves the server's processes are gone (unless `closes` holds them). */
export async function open(launch: LaunchPlan, opts: ConnectOptions): Promise<Opened> {
  const run = new Run(launch, opts);
  try {
    await run.begin();
    await run.establish();
  } catch (err) {
    run.failed(err);
    return { ok: false, observation: await run.finish() };
  }
  return { ok: true, session: run };
}

class Run implements Session, AttemptRun {
  private readonly obs: Observation = { tools: [], findings: [], durationMs: 0 };
  private readonly started = performance.now();
  private deadline: number;
  private attempts!: Attempts;
  private next!: Attempt;
  private conn?: Connection;
  private serverAuth?: ServerAuth;
  private listed = false;
  /** The stdio process of the latest attempt: its streams explain the outcome. */
  private stdio?: StdioChannel;

  constructor(
    readonly target: LaunchPlan,
    readonly opts: ConnectOptions,
  ) {
    this.deadline = Date.now() + opts.timeoutMs;
  }

  get server(): Negotiated {
    return this.obs.session!;
  }
  remainingMs = (): number => Math.max(1, this.deadline - Date.now());
  negotiated = (): boolean => !!this.obs.session;
  extendDeadline(ms: number): void {
    this.deadline += ms;
  }

  /** HTTP's attempts load the SDK here: only HTTP targets need it. */
  async begin(): Promise<void> {
    if (this.target.transport === 'stdio') this.attempts = stdioAttempts(this);
    else {
      const { ServerAuth } = await import('./oauth/server-auth.js');
      const [{ StreamableChannel }, { SseChannel }] = await Promise.all([
        import('./streamable.js'),
        import('./sse.js'),
      ]);
      const { opts } = this;
      const target = remoteOf(this.target);
      this.serverAuth = new ServerAuth(target.url, opts.oauth, target.oauthClient, opts.signal);
      this.attempts = httpAttempts(this, this.serverAuth, { streamable: StreamableChannel, sse: SseChannel });
    }
    this.next = this.attempts.first();
  }

  async establish(): Promise<void> {
    for (;;) {
      try {
        this.conn = await this.connect(this.next);
        return;
      } catch (err) {
        await this.retryOrThrow(err);
      }
    }
  }

  private async retryOrThrow(err: unknown): Promise<void> {
    const next = await this.attempts.after(err);
    if (!next) throw err;
    this.next = next;
  }

  private async connect({ channel, skipProbe }: Attempt): Promise<Connection> {
    if (channel instanceof StdioChannel) this.stdio = channel;
    const rpc = new RpcClient(channel);
    const conn: Connection = { channel, rpc, stop: stopOn(rpc, this), skipProbe };
    try {
      if (this.opts.signal?.aborted) throw new ScanFailure('interrupted', 'interrupted');
      await Promise.race([channel.start(), conn.stop.stopped]);
      this.obs.session = await negotiateSession(this, conn);
      return conn;
    } catch (err) {
      throw await this.drop(conn, err);
    }
  }

  /** Whether it was still starting is asked before the close. */
  private async drop(conn: Connection, err: unknown): Promise<unknown> {
    const { opts } = this;
    const reason =
      err instanceof ScanFailure && err.kind === 'timeout' && !opts.signal?.aborted
        ? stillStarting(err, conn.channel, opts.timeoutMs)
        : err;
    await endConnection(conn);
    return reason;
  }

  async listTools(): Promise<Listed> {
    try {
      for (;;) {
        try {
          return { ok: true, tools: await this.list(this.conn!) };
        } catch (err) {
          this.conn = undefined;
          await this.retryOrThrow(err);
          await this.establish();
        }
      }
    } catch (err) {
      return { ok: false, failure: this.failed(err) };
    }
  }

  private async list(conn: Connection): Promise<Record<string, unknown>[]> {
    const { opts, obs } = this;
    try {
      const session = this.server;
      const budget = new ServerBudget(opts.maxServerBytes);
      budget.charge(sizeEstimate([session.capabilities, session.serverInfo, session.notes]));
      const listing = await listTools(conn.rpc, session, {
        maxPages: opts.maxPages,
        maxTools: opts.maxTools,
        remainingMs: this.remainingMs,
        budget,
        keepSent: opts.keepSent,
      });
      // Still no answer to the probe after the whole listing: this server is silent before initialize.
      if (session.era === 'legacy' && (session.probeSilent?.() || conn.skipProbe))
        opts.eraMemo?.rememberSilentLegacy(memoKey(this.target));
      obs.tools = listing.tools;
      if (listing.sent) obs.sent = listing.sent;
      obs.findings = obs.findings.concat(listing.findings);
      conn.stop.clearDeadline();
      this.listed = true;
      return listing.tools;
    } catch (err) {
      throw await this.drop(conn, err);
    }
  }

  async call(method: string, params: Record<string, unknown>, opts: CallOptions): Promise<Called> {
    if (!this.conn) return { id: 0, failure: new ScanFailure('exited', 'connection closed') };
    const { rpc } = this.conn;
    const sent = { ...params };
    // Modern requests carry the envelope the listing carried (negotiate.ts), no handshake state.
    if (this.server.era === 'modern') sent._meta = modernMeta(this.server.version);
    const id = rpc.peekNextId();
    try {
      return { id, outcome: await rpc.request(method, sent, opts.timeoutMs, { once: opts.once }) };
    } catch (err) {
      return { id, failure: asFailure(err) };
    }
  }

  async close(): Promise<Observation> {
    const conn = this.conn;
    this.conn = undefined;
    if (conn) {
      const ending = endConnection(conn);
      if (this.listed && this.opts.closes && closesUnread(conn.channel, this.obs)) this.opts.closes.add(ending);
      else await ending;
    }
    return this.finish();
  }

  /** The failure as the report says it (HTTP: with how to sign in, when that would help). */
  failed(err: unknown): Failure {
    const explained = this.serverAuth ? this.serverAuth.explain(err) : err;
    const failure = asFailure(explained);
    this.obs.failure = { kind: failure.kind, message: failure.message };
    return this.obs.failure;
  }

  async finish(): Promise<Observation> {
    const { obs, serverAuth } = this;
    if (serverAuth) {
      obs.auth = await serverAuth.describe(this.remainingMs()).catch(() => undefined);
      this.opts.secrets?.add(serverAuth.secrets());
    }
    if (this.stdio) explainStdio(obs, this.stdio);
    obs.durationMs = Math.round(performance.now() - this.started);
    return obs;
  }
}

const asFailure = (err: unknown): ScanFailure =>
  err instanceof ScanFailure ? err : new ScanFailure('protocol', (err as Error)?.message ?? String(err));

/** Nothing the report reads comes while or after it stops (stdio.ts, explainStdio): it may end in the background. */
function closesUnread(channel: Channel, obs: Observation): boolean {
  return channel.kind === 'stdio' && !obs.failure && !obs.findings.some((f) => f.rule === RULE.toolListIncomplete);
}
