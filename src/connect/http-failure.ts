/**
 * An error of fetch or of the SDK's HTTP transports as a failure kind with its words. Loaded only
 * for HTTP targets (and `idemscan auth`): it imports the SDK, which a stdio scan never loads.
 */
import { SdkHttpError, SseError } from '@modelcontextprotocol/client';
import { ScanFailure } from './failure.js';

/** What each system error means, in words beside its code. */
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

/**
 * The system error under fetch's "fetch failed" (its `cause`, or one of an AggregateError's
 * `errors` when both IPv6 and IPv4 were tried), searched a few levels deep.
 */
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

/** A 401 or 403: the report says so in these words, whichever transport saw it. */
export const refusedCredentials = (status?: number): ScanFailure =>
  new ScanFailure('auth', `HTTP ${status ?? 401}: the server refused the credentials`, status);

/**
 * Maps an error from fetch or the SDK's HTTP transports to a failure kind. `host`: the target's
 * `host:port`, named when the system error does not name one (never the URL: it may hold secrets).
 */
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

/**
 * The HTTP status of a refused request: the SDK's `SdkHttpError.status` (its auth layer), the
 * SSE transport's `SseError` code (its GET). Its POST throws a plain Error that names the status
 * only in its words (`Error POSTing to endpoint (HTTP 404): ...`), so only for a plain Error are
 * the words read.
 */
function statusOf(err: unknown): number | undefined {
  if (err instanceof SdkHttpError) return err.status;
  if (err instanceof SseError)
    return typeof err.code === 'number' && err.code >= 100 && err.code < 600 ? err.code : undefined;
  if (!(err instanceof Error) || err.constructor !== Error) return undefined;
  const m = /\(HTTP (\d{3})\)/.exec(err.message);
  return m ? Number(m[1]) : undefined;
}
