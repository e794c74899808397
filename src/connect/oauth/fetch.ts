/** Every OAuth request: a server's metadata must not send idemscan over plain http or to a host never named. */
import { readBody, request, type RedirectPolicy } from '../../io/fetch.js';
import { MAX_JSON_DEPTH, parseJson } from '../../model/bounded-input.js';
import { isErrorObject } from '../error-body.js';
import { proxyDispatcher } from '../proxy.js';

const METADATA_BYTES = 256 * 1024;
const MAX_REDIRECTS = 3;

/** Refused before any byte was sent: the URL breaks urlProblem's rules. */
export class RefusedUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedUrlError';
  }
}

/** Read from the WHATWG-parsed host, where `2130706433` and `0x7f.1` are already `127.0.0.1`. */
export function isLoopback(url: URL): boolean {
  const h = url.hostname;
  if (isLoopbackLiteral(url) || h === 'localhost.' || h === '[::]') return true;
  return ipv4(h)?.every((n) => n === 0) ?? mappedIpv4(h)?.every((n) => n === 0) ?? false;
}

/** By spelling alone, no name resolved: `localhost`, 127.0.0.0/8, `::1` (IPv4-mapped too). */
export function isLoopbackLiteral(url: URL): boolean {
  const h = url.hostname;
  if (h === 'localhost' || h === '[::1]') return true;
  const v4 = ipv4(h) ?? mappedIpv4(h);
  return v4 !== undefined && v4[0] === 127;
}

/** An IPv4-mapped IPv6 host as the parser writes it (`[::ffff:7f00:1]`) as IPv4 numbers, or undefined. */
function mappedIpv4(host: string): number[] | undefined {
  if (!host.startsWith('[::ffff:') || !host.endsWith(']')) return undefined;
  const groups = host.slice(8, -1).split(':');
  if (groups.length !== 2 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const [high, low] = groups.map((g) => parseInt(g, 16)) as [number, number];
  return [high >> 8, high & 255, low >> 8, low & 255];
}

function ipv4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (
    parts.length !== 4 ||
    !parts.every((p) => p.length > 0 && p.length <= 3 && [...p].every((c) => c >= '0' && c <= '9'))
  )
    return undefined;
  return parts.map(Number);
}

/** https anywhere; plain http only to a loopback server's own origin, or between two loopback spellings. */
export function urlProblem(url: URL, serverOrigin: string): string | undefined {
  if (url.protocol === 'https:') return undefined;
  const where = `${url.protocol}//${url.host}`;
  if (url.protocol !== 'http:' || !isLoopback(url))
    return `refused ${where}: OAuth metadata and endpoints must be https (plain http only to loopback hosts, for a loopback MCP server)`;
  if (url.origin === serverOrigin) return undefined;
  const server = URL.canParse(serverOrigin) ? new URL(serverOrigin) : undefined;
  if (server && isLoopbackLiteral(server) && isLoopbackLiteral(url)) return undefined;
  return `refused ${where}: plain http to another origin only when it and the MCP server (${serverOrigin}) are both loopback (localhost, 127.0.0.0/8, [::1]); OAuth metadata and endpoints elsewhere must be https`;
}

/** A challenge's `resource_metadata` is fetched only from the server's own origin. */
export function resourceMetadataProblem(url: URL, serverOrigin: string): string | undefined {
  if (url.origin !== serverOrigin)
    return `refused resource_metadata on another origin (${url.protocol}//${url.host}): protected resource metadata is read only from the server's own origin`;
  return urlProblem(url, serverOrigin);
}

/** Checked before printing or opening: metadata must not make idemscan open `file:`, `smb:` or `vscode:` links. */
export function authorizationUrlProblem(url: URL): string | undefined {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url))) return undefined;
  const scheme = url.protocol === 'http:' ? `http://${url.host}` : `a ${JSON.stringify(url.protocol.slice(0, 40))} URL`;
  return `refused an authorization endpoint that is ${scheme}: only https (or http on a loopback host) is printed or opened`;
}

export interface GuardOptions {
  /** The origin of the MCP server these requests are for (see urlProblem). */
  serverOrigin: string;
  timeoutMs: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

export function guardedFetch(opts: GuardOptions): typeof fetch {
  const maxBytes = opts.maxBytes ?? METADATA_BYTES;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const problem = urlProblem(url, opts.serverOrigin);
    if (problem) throw new RefusedUrlError(problem);
    const res = await request(url, {
      ...(init ? { init } : {}),
      timeoutMs: opts.timeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
      redirects: sameOrigin(url.origin, opts.serverOrigin),
      dispatcher: proxyDispatcher(),
    });
    return boundedBody(res, maxBytes);
  };
}

/** Redirects within the first URL's origin only, at most MAX_REDIRECTS, each URL checked again. */
function sameOrigin(origin: string, serverOrigin: string): RedirectPolicy {
  return {
    follow(location, from, hop) {
      const next = URL.canParse(location, from) ? new URL(location, from) : undefined;
      if (!next || next.origin !== origin)
        throw new RefusedUrlError(`refused a redirect from ${origin} to another origin`);
      if (hop > MAX_REDIRECTS) throw new RefusedUrlError(`more than ${MAX_REDIRECTS} redirects from ${origin}`);
      const problem = urlProblem(next, serverOrigin);
      if (problem) throw new RefusedUrlError(problem);
      return next;
    },
  };
}

/** The body, read whole up to `maxBytes` (metadata and token answers are small). */
async function boundedBody(res: Response, maxBytes: number): Promise<Response> {
  if (!res.body) return res;
  const read = await readBody(res, maxBytes);
  if ('tooLarge' in read)
    throw new RefusedUrlError(`an OAuth answer from ${new URL(res.url || 'http://x').host} passed ${maxBytes} bytes`);
  // The SDK quotes a body it cannot parse: anything not OAuth-shaped reaches it empty.
  const body =
    res.status === 204 || res.status === 304
      ? null
      : oauthShaped(res, read.bytes.toString('utf8'), maxBytes)
        ? read.bytes
        : '';
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** An answer nested deeper than MAX_JSON_DEPTH is no OAuth answer: the SDK gets it empty. */
function oauthShaped(res: Response, text: string, maxBytes: number): boolean {
  if (!res.ok) return isErrorObject(text);
  const parsed = parseJson(text, { maxBytes, maxDepth: MAX_JSON_DEPTH });
  return 'value' in parsed && typeof parsed.value === 'object' && parsed.value !== null;
}
