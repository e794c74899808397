/** HTTP+SSE (2024-11-05) through the SDK's transport, used as a raw frame pipe. */
import { SSEClientTransport } from '@modelcontextprotocol/client';
import type { Channel, ChannelEvents, SendOptions } from './channel.js';
import { guardBody, request } from '../io/fetch.js';
import { notJsonRpc } from './error-body.js';
import { ScanFailure } from './failure.js';
import { httpFailure } from './http-failure.js';
import { proxyDispatcher } from './proxy.js';
import { endpointOf, excerpt, quotableBody, SentOnce, tooLarge, type HttpChannelOptions } from './http-shared.js';

export class SseChannel implements Channel {
  readonly events: ChannelEvents = {};
  readonly kind = 'sse';
  private readonly transport: SSEClientTransport;
  private readonly abort = new AbortController();
  /** `host:port` for failure messages (the URL itself may carry secrets). */
  private readonly host: string;
  /** The last ok answer's content type and size, which stand for it when it is no JSON-RPC. */
  private readonly answer: OkAnswer = { bytes: 0 };
  private readonly sentOnce = new SentOnce();

  constructor(opts: HttpChannelOptions) {
    const { url, headers } = endpointOf(opts.url, opts.headers);
    this.host = url.host;
    const init = {
      requestInit: { headers },
      fetch: boundedFetch(opts.maxBodyBytes, this.abort.signal, this.answer, this.sentOnce, opts.onResponse),
      ...(opts.authProvider ? { authProvider: opts.authProvider } : {}),
    };
    this.transport = new SSEClientTransport(url, { ...init, eventSourceInit: { fetch: init.fetch } });
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
    this.transport.setProtocolVersion(version);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.transport.close().catch(() => {});
  }
}

interface OkAnswer {
  type?: string | null;
  bytes: number;
}

/** fetch whose bodies stop at `limit` bytes; a refused body is only ever quoted (quotableBody). */
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
      () => tooLarge(limit),
      (seen) => (answer.bytes = seen),
    );
  };
}

/** The error body as the SDK will quote it: the error object, or only its size and content type. */
async function errorResponse(res: Response): Promise<Response> {
  const quoted = await quotableBody(res);
  const empty = res.status === 204 || res.status === 304;
  return new Response(empty ? null : quoted, { status: res.status, statusText: res.statusText, headers: res.headers });
}
