/**
 * The one fetch every OAuth request goes through (discovery, registration, tokens): https except
 * loopback, a time bound, a size bound on the body, and redirects followed only within one origin.
 * A server's metadata is untrusted: it must not send idemscan to another host over plain http, or
 * redirect it somewhere the user never named.
 */
import { proxyDispatcher } from '../proxy.js';

export const METADATA_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

/** Refused before any byte was sent: the URL breaks the rules above. */
export class RefusedUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedUrlError';
  }
}

export function isLoopback(url: URL): boolean {
  const h = url.hostname;
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why idemscan will not fetch this URL for OAuth, or undefined. */
export function urlProblem(url: URL): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url)) return undefined;
  return `refused ${url.protocol}//${url.host}: OAuth metadata and endpoints must be https (plain http only on loopback)`;
}

export interface GuardOptions {
  timeoutMs: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

export function guardedFetch(opts: GuardOptions): typeof fetch {
  const maxBytes = opts.maxBytes ?? METADATA_BYTES;
  return async (input, init) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    const origin = url.origin;
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signals = [timeout, ...(opts.signal ? [opts.signal] : []), ...(init?.signal ? [init.signal] : [])];
    const request = { ...init, signal: AbortSignal.any(signals), redirect: 'manual' as const, dispatcher: proxyDispatcher() };
    for (let hop = 0; ; hop++) {
      const problem = urlProblem(url);
      if (problem) throw new RefusedUrlError(problem);
      const res = await fetch(url, request as RequestInit);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        const next = URL.canParse(location, url) ? new URL(location, url) : undefined;
        if (!next || next.origin !== origin) throw new RefusedUrlError(`refused a redirect from ${origin} to another origin`);
        if (hop >= MAX_REDIRECTS) throw new RefusedUrlError(`more than ${MAX_REDIRECTS} redirects from ${origin}`);
        await res.body?.cancel();
        url = next;
        continue;
      }
      return boundedBody(res, maxBytes);
    }
  };
}

/** The body, read whole up to `maxBytes` (metadata and token answers are small). */
async function boundedBody(res: Response, maxBytes: number): Promise<Response> {
  if (!res.body) return res;
  const chunks: Uint8Array[] = [];
  let seen = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    seen += chunk.byteLength;
    if (seen > maxBytes) {
      await res.body.cancel().catch(() => {});
      throw new RefusedUrlError(`an OAuth answer from ${new URL(res.url || 'http://x').host} passed ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  const body = res.status === 204 || res.status === 304 ? null : Buffer.concat(chunks);
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
