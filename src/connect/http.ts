/**
 * HTTP servers through the SDK's own transports (Streamable HTTP, and the older HTTP+SSE), used
 * as raw frame pipes: the SDK handles sessions, SSE parsing and the per-request
 * `MCP-Protocol-Version` / `Mcp-Method` headers it derives from each modern request's `_meta`.
 */
import { SSEClientTransport, StreamableHTTPClientTransport, type AuthProvider } from '@modelcontextprotocol/client';
import type { Channel, ChannelEvents, SendOptions } from './channel.js';
import { guardBody, readHead, request } from '../io/fetch.js';
import { basicAuthFromUrl } from '../redact/redact.js';
import { bounded } from '../model/bounds.js';
import { isErrorObject, notJsonRpc, unquotedBody } from './error-body.js';
import { ScanFailure } from './failure.js';
import { httpFailure } from './http-failure.js';
import { proxyDispatcher } from './proxy.js';

/**
 * The SDK quotes a refused request's whole body in its error, and the error becomes the report's
 * failure message: an error body is read up to ERROR_BODY_BYTES, and quoted up to EXCERPT_CHARS
 * (and only when it is an error object; see errorResponse).
 */
const ERROR_BODY_BYTES = 16 * 1024;
const EXCERPT_CHARS = 2_000;

type SdkTransport = StreamableHTTPClientTransport | SSEClientTransport;

export interface HttpOptions {
  url: string;
  headers?: Record<string, string>;
  kind: 'streamable' | 'sse';
  maxBodyBytes: number;
  /** Bearer tokens and their refresh on 401 (connect/oauth/server-auth.ts). */
  authProvider?: AuthProvider;
  /** Sees every response's status and headers before the SDK does (a 401's WWW-Authenticate). */
  onResponse?: (res: Response) => void;
}

export class HttpChannel implements Channel {
  readonly events: ChannelEvents = {};
  readonly kind: 'streamable' | 'sse';
  private readonly transport: SdkTransport;
  private readonly abort = new AbortController();
  /** `host:port` for failure messages (the URL itself may carry secrets). */
  private readonly host: string;
  /** The last ok answer's content type and size, which stand for it when it is no JSON-RPC. */
  private readonly answer: OkAnswer = { bytes: 0 };
  private readonly sentOnce = new SentOnce();

  constructor(opts: HttpOptions) {
    this.kind = opts.kind;
    const url = new URL(opts.url);
    this.host = url.host;
    const headers = { ...opts.headers };
    // fetch refuses URLs with credentials (and would put them in its error): send them as Basic auth.
    const basic = basicAuthFromUrl(url);
    if (basic) {
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) headers.Authorization = basic;
      url.username = '';
      url.password = '';
    }
    const init = {
      requestInit: { headers },
      fetch: boundedFetch(opts.maxBodyBytes, this.abort.signal, this.answer, this.sentOnce, opts.onResponse),
      ...(opts.authProvider ? { authProvider: opts.authProvider } : {}),
    };
    this.transport =
      opts.kind === 'sse'
        ? new SSEClientTransport(url, { ...init, eventSourceInit: { fetch: init.fetch } })
        : new StreamableHTTPClientTransport(url, { ...init, reconnectionOptions: noReconnect });
    this.transport.onmessage = (m) => this.events.onmessage?.(m as unknown as Record<string, unknown>);
    this.transport.onerror = () => {}; // send() rejects with the same error; that is where we map it
  }

  async start(): Promise<void> {
    try {
      await this.transport.start();
    } catch (err) {
      throw this.failure(err);
    }
  }

  async send(message: unknown, opts?: SendOptions): Promise<void> {
    // The SDK posts JSON.stringify(message): the same text is what boundedFetch recognises.
    if (opts?.once) this.sentOnce.hold(JSON.stringify(message));
    try {
      await (this.transport.send as (m: unknown) => Promise<void>)(message);
    } catch (err) {
      throw this.failure(err);
    }
  }

  private failure(err: unknown): ScanFailure {
    // JSON.parse's SyntaxError and zod's error (its `issues`) quote what the server sent.
    if (err instanceof SyntaxError || Array.isArray((err as { issues?: unknown } | undefined)?.issues)) {
      return new ScanFailure(
        'protocol',
        notJsonRpc(this.answer.type, this.answer.type === undefined ? undefined : this.answer.bytes),
      );
    }
    return excerpt(httpFailure(err, this.host));
  }

  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.transport.close().catch(() => {});
  }
}

function excerpt(failure: ScanFailure): ScanFailure {
  return failure.message.length <= EXCERPT_CHARS
    ? failure
    : new ScanFailure(failure.kind, bounded(failure.message, EXCERPT_CHARS));
}

const noReconnect = {
  maxReconnectionDelay: 1000,
  initialReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1,
  maxRetries: 0,
};

/**
 * The bodies of the requests sent `once` on this connection (SendOptions), and what the one request
 * of each got. The SDK sends a request again inside its send(): after a 401 it refreshes the token
 * and posts the same body, after a 403 `insufficient_scope` it steps up and posts it, and it follows
 * a same-origin 307 or 308 with it. Every copy passes through boundedFetch, which refuses the
 * second before a byte of it is sent. Held until the connection is gone, so no later path can
 * repeat one either (a probe sends a few dozen requests at most).
 */
class SentOnce {
  private readonly held = new Map<string, { sent: boolean; status?: number }>();

  hold(body: string): void {
    if (!this.held.has(body)) this.held.set(body, { sent: false });
  }

  /** Before a request goes out: a held body's first copy is noted, its second refused. */
  admit(body: unknown): { status?: number } | undefined {
    const entry = typeof body === 'string' ? this.held.get(body) : undefined;
    if (!entry) return undefined;
    if (entry.sent) {
      const status = entry.status;
      const answered = status === undefined ? 'sent before' : `answered HTTP ${status}`;
      throw new ScanFailure(
        status === 401 || status === 403 ? 'auth' : 'protocol',
        `${answered}; not sent again: the server may have carried it out (a probe call goes out once)`,
        status,
      );
    }
    entry.sent = true;
    return entry;
  }
}

/**
 * fetch whose response bodies stop at `limit` bytes: a hostile server cannot exhaust memory. A
 * refused request's body is only ever quoted: read up to ERROR_BODY_BYTES, and passed on only
 * when it is a JSON-RPC or OAuth error object (error-body.ts).
 */
interface OkAnswer {
  type?: string | null;
  bytes: number;
}

function boundedFetch(
  limit: number,
  closed: AbortSignal,
  answer: OkAnswer,
  sentOnce: SentOnce,
  onResponse?: (res: Response) => void,
): typeof fetch {
  return async (input, init) => {
    const dispatcher = proxyDispatcher();
    const once = sentOnce.admit(init?.body);
    const res = await request(input, {
      ...(init ? { init } : {}),
      signal: closed,
      ...(dispatcher ? { dispatcher } : {}),
    });
    if (once) once.status = res.status;
    onResponse?.(res);
    if (!res.body) return res;
    if (!res.ok) return errorResponse(res);
    answer.type = res.headers.get('content-type');
    answer.bytes = 0;
    // An announced length within the bound needs no counting stream: fetch itself fails a body
    // that runs past its Content-Length.
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared >= 0 && declared <= limit) {
      answer.bytes = declared;
      return res;
    }
    return guardBody(
      res,
      limit,
      () => new ScanFailure('protocol', `response body exceeded ${limit} bytes`),
      (seen) => (answer.bytes = seen),
    );
  };
}

/** The error body as the SDK will quote it: the error object, or only its size and content type. */
async function errorResponse(res: Response): Promise<Response> {
  // Past ERROR_BODY_BYTES the rest is never downloaded.
  const { bytes, cut } = await readHead(res, ERROR_BODY_BYTES);
  const text = bytes.toString('utf8');
  const quoted =
    !cut && isErrorObject(text)
      ? text
      : unquotedBody(res.headers.get('content-type'), cut ? ERROR_BODY_BYTES : bytes.length, cut);
  const empty = res.status === 204 || res.status === 304;
  return new Response(empty ? null : quoted, { status: res.status, statusText: res.statusText, headers: res.headers });
}
