/** Streamable HTTP, our own client: docs/INTERNALS.md. */
import type { RedirectPolicy } from '../io/fetch.js';
import { answerOf, type Answer } from '../io/http-request.js';
import { bounded } from '../model/bounds.js';
import { answerKind, readEvents, readJson } from './answers.js';
import type { Channel, ChannelEvents, SendOptions } from './channel.js';
import { ScanFailure } from './failure.js';
import { httpFailure, refusedCredentials } from './http-failure.js';
import { endpointOf, excerpt, quotableAnswer, SentOnce, type HttpChannelOptions } from './http-shared.js';
import { bodyHeaders, claimedVersion } from './mcp-headers.js';
import { FIRST_MODERN_PROTOCOL_VERSION } from './protocol.js';
import { proxyDispatcher } from './proxy.js';

/** As the SDK's transport and fetch itself: more hops than this is a loop. */
const MAX_REDIRECTS = 5;

type Message = Record<string, unknown>;

export class StreamableChannel implements Channel {
  readonly kind = 'streamable';
  readonly events: ChannelEvents = {};
  private readonly abort = new AbortController();
  private readonly url: URL;
  /** `host:port` for failure messages (the URL itself may carry secrets). */
  private readonly host: string;
  /** The target's own headers (lower-case names) and the two every POST carries. */
  private readonly base: Record<string, string>;
  private readonly sentOnce = new SentOnce();
  private session?: string;
  private version?: string;
  /** Requests whose answer is still being read: what `close()` has to cut short. */
  private inFlight = 0;
  private closed = false;

  constructor(private readonly opts: HttpChannelOptions) {
    const { url, headers } = endpointOf(opts.url, opts.headers);
    this.url = url;
    this.host = url.host;
    this.base = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const accept = (this.base.accept?.split(',') ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean);
    this.base.accept = [...new Set([...accept, 'application/json', 'text/event-stream'])].join(', ');
    this.base['content-type'] = 'application/json';
  }

  async start(): Promise<void> {}

  async send(message: unknown, opts?: SendOptions): Promise<void> {
    if (this.closed) throw new ScanFailure('exited', 'connection closed');
    const body = JSON.stringify(message);
    if (opts?.once) this.sentOnce.hold(body);
    this.inFlight++;
    try {
      await this.post(message as Message, body, false);
    } catch (err) {
      throw excerpt(httpFailure(err, this.host));
    } finally {
      this.inFlight--;
    }
  }

  setProtocolVersion(version: string): void {
    this.version = version;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Aborting is not free (every request made with the signal hears it): only when one is still open.
    if (this.inFlight > 0) this.abort.abort();
  }

  /** One message on the wire, and its answer read to the end (a request's) or set aside. */
  private async post(message: Message, body: string, retried: boolean): Promise<void> {
    const initialize = message.method === 'initialize';
    const res = await this.fetch(body, await this.headersFor(message, initialize));
    if (res.status < 200 || res.status > 299) return this.refused(message, body, res, retried);
    if (initialize) this.session = res.header('mcp-session-id') || undefined;
    const isRequest = typeof message.method === 'string' && message.id !== undefined;
    if (res.status === 202 || !isRequest) return discard(res);
    const deliver = (m: Message) => this.events.onmessage?.(m);
    const kind = answerKind(res.header('content-type'));
    if (kind === 'json') return readJson(res, this.opts.maxBodyBytes, deliver);
    if (kind === 'events') {
      // Without resumption, a stream that ended unanswered will never answer.
      if (!(await readEvents(res, this.opts.maxBodyBytes, deliver)))
        throw new ScanFailure('protocol', `the server ended its event stream without answering ${message.method}`);
      return;
    }
    await discard(res);
    throw new ScanFailure('protocol', `Unexpected content type: ${bounded(String(res.header('content-type')), 80)}`);
  }

  private async headersFor(message: Message, initialize: boolean): Promise<Record<string, string>> {
    const headers = { ...this.base };
    const token = await this.opts.authProvider?.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (this.session) headers['mcp-session-id'] = this.session;
    if (initialize) delete headers['mcp-session-id'];
    if (this.version) headers['mcp-protocol-version'] = this.version;
    return Object.assign(headers, bodyHeaders(message));
  }

  /** A refusal: a 401 refreshes the token once (the body may then be refused as sent before), else a failure. */
  private async refused(message: Message, body: string, res: Answer, retried: boolean): Promise<void> {
    const { status } = res;
    const auth = this.opts.authProvider;
    if (status === 401 && auth?.onUnauthorized && !retried) {
      await auth.onUnauthorized({ response: res.asResponse(), serverUrl: this.url, fetchFn: fetch });
      await discard(res);
      return this.post(message, body, true);
    }
    const quoted = await quotableAnswer(res);
    if (status === 401 || status === 403) throw refusedCredentials(status);
    // A 2026 server refuses a request it cannot serve with 400 and a JSON-RPC error: that is the answer.
    const version = claimedVersion(message);
    if (status === 400 && version !== undefined && version >= FIRST_MODERN_PROTOCOL_VERSION) {
      const error = errorFor(quoted, message.id);
      if (error) return void this.events.onmessage?.(error);
    }
    throw new ScanFailure('protocol', `HTTP ${status}: Error POSTing to endpoint: ${quoted}`, status);
  }

  private async fetch(body: string, headers: Record<string, string>): Promise<Answer> {
    const once = this.sentOnce.admit(body);
    const dispatcher = proxyDispatcher();
    const res = await answerOf(this.url, {
      method: 'POST',
      headers,
      body,
      signal: this.abort.signal,
      redirects: this.redirects(body),
      ...(dispatcher ? { dispatcher } : {}),
    });
    if (once) once.status = res.status;
    if (res.status === 401 || res.status === 403) this.opts.onResponse?.(res.asResponse());
    return res;
  }

  /** As the SDK's transport: a POST follows a 307 or 308 within the origin, with the same body (sent once: admitted again). */
  private redirects(body: string): RedirectPolicy {
    return {
      follow: (location, from, hop, status) => {
        const to = URL.canParse(location, from) ? new URL(location, from) : undefined;
        const followed = to && (status === 307 || status === 308) && withinOrigin(from, to);
        const loop = `more than ${MAX_REDIRECTS} redirects in a row, a loop`;
        if (followed && hop > MAX_REDIRECTS) throw new ScanFailure('protocol', `HTTP ${status}: ${loop}`, status);
        if (followed) {
          this.sentOnce.admit(body);
          return to;
        }
        throw new ScanFailure('protocol', `HTTP ${status}: ${notFollowed(to)}`, status);
      },
    };
  }
}

/** Whether `to` keeps the scheme, host, port and credentials of `from` (or is its https form on the default ports). */
function withinOrigin(from: URL, to: URL): boolean {
  if (to.username || to.password) return false;
  if (from.protocol === to.protocol && from.host === to.host) return true;
  return (
    from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname && !from.port && !to.port
  );
}

function notFollowed(to: URL | undefined): string {
  if (!to) return 'a redirect that names no URL, not followed';
  to.username = to.password = to.search = to.hash = '';
  return `a redirect to ${bounded(to.href, 200)}, not followed (a POST follows only a 307 or 308 within its origin): use that URL as the endpoint if it is the server`;
}

/** A quoted 400 body that is the JSON-RPC error answering request `id`. */
function errorFor(quoted: string, id: unknown): Message | undefined {
  try {
    const m = JSON.parse(quoted) as Message;
    return m?.jsonrpc === '2.0' && m.id === id && m.error && typeof m.error === 'object' ? m : undefined;
  } catch {
    return undefined;
  }
}

/** An answer with nothing to read (a 202, the answer to a notification): its socket back to the pool. */
async function discard(res: Answer): Promise<void> {
  await res.body.dump().catch(() => {});
}
