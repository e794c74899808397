/** Loaded only for HTTP targets and `idemscan auth`: it imports the SDK, which a stdio scan never loads. */
import { SdkHttpError, SseError } from '@modelcontextprotocol/client';
import { bounded } from '../model/bounds.js';
import { ScanFailure } from './failure.js';

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAI_AGAIN: 'name lookup failed for now',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
};

interface SystemError {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The system error under "fetch failed" (`cause`, or an AggregateError's `errors` when IPv6 and IPv4 were tried). */
function systemError(err: unknown, depth = 0): SystemError | undefined {
  if (typeof err !== 'object' || err === null || depth > 4) return undefined;
  const e = err as SystemError;
  if (typeof e.code === 'string' && e.code in UNREACHABLE) return e;
  const inner = [e.cause, ...(Array.isArray(e.errors) ? e.errors.slice(0, 4) : [])];
  for (const x of inner) {
    const found = systemError(x, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** `ECONNREFUSED 127.0.0.1:3000: cannot reach the server (connection refused)`: code, where, why. */
function unreachable(e: SystemError, host: string | undefined): ScanFailure {
  const code = String(e.code);
  const where =
    typeof e.address === 'string'
      ? typeof e.port === 'number'
        ? `${e.address}:${e.port}`
        : e.address
      : typeof e.hostname === 'string'
        ? e.hostname
        : host;
  return new ScanFailure(
    'unreachable',
    `${code}${where ? ` ${where}` : ''}: cannot reach the server (${UNREACHABLE[code]})`,
  );
}

/** Undici's and fetch's words for a header they refuse to send, and its name when they give it. */
const REFUSED_HEADER_WORDS: [RegExp, (m: RegExpExecArray) => string | undefined][] = [
  [/^invalid header key$/, () => undefined],
  [/^(?:invalid|duplicate) ([!#$%&'*+.^\w`|~-]+) header$/, (m) => m[1]],
  [/^expect header not supported$/, () => 'expect'],
  [/^Headers\.\w+: "([\s\S]*)" is an invalid header name\.$/, (m) => m[1]],
  // fetch quotes the value here: not a word of it is kept.
  [/^Headers\.\w+: [\s\S]* is an invalid header value\.$/, () => undefined],
  [/^Cannot convert argument to a ByteString\b/, () => undefined],
];
const UNDICI_REFUSED = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

/** Undici's error (by its code), fetch's own TypeError, or the SseError that keeps only their words. */
function refusalWords(err: unknown, depth = 0): string | undefined {
  if (typeof err !== 'object' || err === null || depth > 4) return undefined;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.message !== 'string') return undefined;
  if (typeof e.code === 'string' && UNDICI_REFUSED.has(e.code)) return e.message;
  if (err instanceof SseError) return /^SSE error: (?:TypeError: fetch failed: )?([\s\S]*)$/.exec(e.message)?.[1];
  if (err instanceof TypeError && e.message !== 'fetch failed') return e.message;
  return refusalWords(e.cause, depth + 1);
}

function refusedHeader(err: unknown): { name?: string } | undefined {
  const words = refusalWords(err);
  if (words === undefined) return undefined;
  for (const [pattern, name] of REFUSED_HEADER_WORDS) {
    const m = pattern.exec(words);
    if (m) return { name: name(m) };
  }
  return undefined;
}

/** Nothing reached the server: the target's headers are what to fix, not the network. */
function notSent(header: { name?: string }): ScanFailure {
  const which =
    header.name === undefined
      ? "one of the target's headers"
      : `the target's header ${JSON.stringify(bounded(header.name, 100))}`;
  return new ScanFailure(
    'protocol',
    `the request was not sent: idemscan's HTTP client refuses ${which} (a name that is not an HTTP token or that the client sets itself, or a control character in the value)`,
  );
}

export const refusedCredentials = (status?: number): ScanFailure =>
  new ScanFailure('auth', `HTTP ${status ?? 401}: the server refused the credentials`, status);

/** `host`: the target's `host:port`, never the URL (it may hold secrets). */
export function httpFailure(err: unknown, host?: string): ScanFailure {
  if (err instanceof ScanFailure) return err;
  const e = err as { code?: unknown; name?: string; message?: string; cause?: { code?: string; message?: unknown } };
  const status = statusOf(err);
  const message = e.message ?? String(err);
  if (e.name === 'UnauthorizedError' || status === 401 || status === 403) {
    return refusedCredentials(status);
  }
  const system = systemError(err);
  if (system) return unreachable(system, host);
  const header = refusedHeader(err);
  if (header) return notSent(header);
  if (/fetch failed/i.test(message) && e.cause?.message === 'bad port') {
    // fetch refuses some ports outright (https://fetch.spec.whatwg.org/#port-blocking): 9, 6000, ...
    const port = host?.slice(host.lastIndexOf(':') + 1);
    const which = port && /^\d+$/.test(port) ? `port ${port}` : 'this port';
    return new ScanFailure(
      'unreachable',
      `cannot reach the server${host ? ` at ${host}` : ''}: ${which} is blocked by fetch (a "bad port"): use another`,
    );
  }
  if (/fetch failed/i.test(message)) {
    // Another cause (a TLS error): its words, and where.
    const cause = typeof e.cause?.message === 'string' ? `: ${e.cause.message}` : '';
    return new ScanFailure('unreachable', `cannot reach the server${host ? ` at ${host}` : ''} (${message}${cause})`);
  }
  return new ScanFailure('protocol', status ? `HTTP ${status}: ${message}` : message, status);
}

/** SdkHttpError's status, SseError's code; the SSE POST's plain Error names the status only in its words. */
function statusOf(err: unknown): number | undefined {
  if (err instanceof SdkHttpError) return err.status;
  if (err instanceof SseError)
    return typeof err.code === 'number' && err.code >= 100 && err.code < 600 ? err.code : undefined;
  if (!(err instanceof Error) || err.constructor !== Error) return undefined;
  const m = /\(HTTP (\d{3})\)/.exec(err.message);
  return m ? Number(m[1]) : undefined;
}
