// Every HTTP body idemscan reads comes through here. Bounds: docs/INTERNALS.md, "Untrusted input".

/** Without one, `init.redirect` applies (fetch follows by default). */
export interface RedirectPolicy {
  /** Throws the caller's own error to refuse; `hop` counts from 1. */
  follow(location: string, from: URL, hop: number, status: number): URL;
}

export interface FetchOptions {
  /** Its own `signal` counts beside `signal`. */
  init?: RequestInit;
  /** The whole request, body included. */
  timeoutMs?: number;
  signal?: AbortSignal;
  redirects?: RedirectPolicy;
  /** An undici dispatcher (connect/proxy.ts). */
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

/** The body unread; throws what fetch throws. */
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

/** An announced Content-Length past the bound is refused before a byte is read. */
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

export class BodyTooLarge extends Error {}

/** Leaving early cancels the stream, so the rest is never downloaded. */
export async function* within<C extends Uint8Array>(chunks: AsyncIterable<C>, maxBytes: number): AsyncGenerator<C> {
  let seen = 0;
  for await (const chunk of chunks) {
    seen += chunk.byteLength;
    if (seen > maxBytes) throw new BodyTooLarge(`more than ${maxBytes} bytes`);
    yield chunk;
  }
}

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

/** For a body only ever quoted (an error page). */
export function readHead(res: Response, maxBytes: number): Promise<{ bytes: Buffer<ArrayBuffer>; cut: boolean }> {
  return headOf(chunksOf(res.body ?? new Blob().stream()), maxBytes);
}

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

/** Passed on as it arrives: an event stream may last the whole connection. */
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

/** A failure is a value whose words each caller chooses. */
export type Fetched =
  | { ok: true; status: number; headers: Headers; bytes: Buffer<ArrayBuffer> }
  /** A 3xx the policy did not follow included; its body is not read. */
  | { ok: false; why: 'status'; status: number }
  | { ok: false; why: 'too-large'; declared?: number }
  | { ok: false; why: 'timeout' }
  | { ok: false; why: 'interrupted' }
  /** `error.cause` says more. */
  | { ok: false; why: 'failed'; error: Error };

export async function fetchBody(url: string | URL, opts: FetchOptions & { maxBytes: number }): Promise<Fetched> {
  // Made here so that a body cut off by it is told from a dropped connection.
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
