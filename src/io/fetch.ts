/**
 * The one fetch: every HTTP body idemscan reads comes through here (MCP servers' answers to the
 * SDK's transports, OAuth metadata and tokens, MCP Registry pages, .mcpb downloads). A body is read
 * as a stream to a byte bound and refused past it (or, for a body that is only ever quoted, cut),
 * the rest never downloaded; an announced Content-Length past the bound is refused before a byte is
 * read. The request, its body included, has a deadline and follows the caller's abort signal, and
 * redirects are followed only as the caller's policy says, each hop checked before it is sent.
 */

/** Where a 3xx's Location may lead. Without one, `init.redirect` applies (fetch follows by default). */
export interface RedirectPolicy {
  /** The next URL, checked; throws (the caller's own error) to refuse it. `hop` counts from 1. */
  follow(location: string, from: URL, hop: number, status: number): URL;
}

export interface FetchOptions {
  /** Method, headers and body; its own `signal` counts beside `signal`. */
  init?: RequestInit;
  /** The whole request, body included. */
  timeoutMs?: number;
  signal?: AbortSignal;
  redirects?: RedirectPolicy;
  /** An undici dispatcher (connect/proxy.ts), passed on to fetch. */
  dispatcher?: object;
}

function initOf(opts: FetchOptions): RequestInit {
  const signals = [
    ...(opts.timeoutMs !== undefined ? [AbortSignal.timeout(opts.timeoutMs)] : []),
    ...(opts.signal ? [opts.signal] : []),
    ...(opts.init?.signal ? [opts.init.signal] : []),
  ];
  return {
    ...opts.init,
    ...(signals.length > 0 ? { signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] } : {}),
    ...(opts.redirects ? { redirect: 'manual' } : {}),
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
  } as RequestInit;
}

/** The response (after the redirects the policy follows), its body unread. Throws what fetch throws. */
export async function request(input: string | URL | Request, opts: FetchOptions = {}): Promise<Response> {
  const init = initOf(opts);
  if (!opts.redirects) return fetch(input, init);
  let at = new URL(input instanceof Request ? input.url : input);
  for (let hop = 1; ; hop++) {
    const res = await fetch(at, init);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || !location) return res;
    await res.body?.cancel().catch(() => {});
    at = opts.redirects.follow(location, at, hop, res.status);
  }
}

const chunksOf = (body: ReadableStream<Uint8Array>) => body as unknown as AsyncIterable<Uint8Array>;

/** A body read whole, or refused: more than `maxBytes` announced or sent (`declared` when announced). */
export async function readBody(
  res: Response,
  maxBytes: number,
): Promise<{ bytes: Buffer<ArrayBuffer> } | { tooLarge: true; declared?: number }> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    return { tooLarge: true, declared };
  }
  return allOf(chunksOf(res.body ?? new Blob().stream()), maxBytes);
}

/** Marks a body that passed its bound in `within()`. */
export class BodyTooLarge extends Error {}

/**
 * The one bounded read of a body: its chunks as they arrive, and BodyTooLarge once more than
 * `maxBytes` came. Leaving early (the bound, or the reader's own exit) cancels the stream, so the
 * rest is never downloaded.
 */
export async function* within<C extends Uint8Array>(chunks: AsyncIterable<C>, maxBytes: number): AsyncGenerator<C> {
  let seen = 0;
  for await (const chunk of chunks) {
    seen += chunk.byteLength;
    if (seen > maxBytes) throw new BodyTooLarge(`more than ${maxBytes} bytes`);
    yield chunk;
  }
}

/** A stream of chunks read whole, or refused once past `maxBytes`. */
export async function allOf(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<{ bytes: Buffer<ArrayBuffer> } | { tooLarge: true }> {
  const kept: Uint8Array[] = [];
  try {
    for await (const chunk of within(chunks, maxBytes)) kept.push(chunk);
  } catch (err) {
    if (err instanceof BodyTooLarge) return { tooLarge: true };
    throw err;
  }
  return { bytes: Buffer.concat(kept) };
}

/** The first `maxBytes` of a body (one only quoted: an error page), and whether there was more. */
export function readHead(res: Response, maxBytes: number): Promise<{ bytes: Buffer<ArrayBuffer>; cut: boolean }> {
  return headOf(chunksOf(res.body ?? new Blob().stream()), maxBytes);
}

/** The first `maxBytes` of a stream of chunks; leaving early cancels it, so the rest is never read. */
export async function headOf(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<{ bytes: Buffer<ArrayBuffer>; cut: boolean }> {
  const kept: Uint8Array[] = [];
  let seen = 0;
  for await (const chunk of chunks) {
    if (seen + chunk.byteLength > maxBytes) {
      kept.push(chunk.subarray(0, maxBytes - seen));
      return { bytes: Buffer.concat(kept), cut: true };
    }
    seen += chunk.byteLength;
    kept.push(chunk);
  }
  return { bytes: Buffer.concat(kept), cut: false };
}

/**
 * The response with its body passed on as it arrives (a stream of server-sent events may last the
 * whole connection), failing with `tooLarge()` once more than `maxBytes` came; `onBytes` sees the count.
 */
export function guardBody(
  res: Response,
  maxBytes: number,
  tooLarge: () => Error,
  onBytes?: (seen: number) => void,
): Response {
  if (!res.body) return res;
  let seen = 0;
  const guard = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, ctl) {
      seen += chunk.byteLength;
      onBytes?.(seen);
      if (seen > maxBytes) ctl.error(tooLarge());
      else ctl.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(guard), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/** What a whole-body fetch came to; a failure is a value whose words each caller chooses. */
export type Fetched =
  | { ok: true; status: number; headers: Headers; bytes: Buffer<ArrayBuffer> }
  /** A non-2xx answer (a 3xx the policy did not follow included); its body is not read. */
  | { ok: false; why: 'status'; status: number }
  | { ok: false; why: 'too-large'; declared?: number }
  | { ok: false; why: 'timeout' }
  | { ok: false; why: 'interrupted' }
  /** fetch's own error (no connection, a refused redirect): `error.cause` says more. */
  | { ok: false; why: 'failed'; error: Error };

/** One request and its whole body, up to `maxBytes`, as a value: a registry page, a bundle. */
export async function fetchBody(url: string | URL, opts: FetchOptions & { maxBytes: number }): Promise<Fetched> {
  // The deadline made here, so that a body cut off by it is told from a dropped connection.
  const deadline = opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs);
  const signals = [...(opts.signal ? [opts.signal] : []), ...(deadline ? [deadline] : [])];
  try {
    const res = await request(url, { ...opts, timeoutMs: undefined, signal: AbortSignal.any(signals) });
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => {});
      return { ok: false, why: 'status', status: res.status };
    }
    const body = await readBody(res, opts.maxBytes);
    if ('tooLarge' in body)
      return { ok: false, why: 'too-large', ...(body.declared === undefined ? {} : { declared: body.declared }) };
    return { ok: true, status: res.status, headers: res.headers, bytes: body.bytes };
  } catch (err) {
    if (opts.signal?.aborted) return { ok: false, why: 'interrupted' };
    if (deadline?.aborted) return { ok: false, why: 'timeout' };
    return { ok: false, why: 'failed', error: err as Error };
  }
}
