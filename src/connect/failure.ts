import type { FailureKind } from '../report/schema.js';

/** Inside the connector a failure travels as this error; `scan()` turns it into report data. */
export class ScanFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'ScanFailure';
  }
}

/** Maps an error from fetch or the SDK's HTTP transports to a failure kind. */
export function httpFailure(err: unknown): ScanFailure {
  if (err instanceof ScanFailure) return err;
  const e = err as { code?: unknown; name?: string; message?: string; data?: { status?: number }; cause?: { code?: string } };
  // Streamable HTTP errors carry data.status; the SSE transport's SseError a numeric code.
  const status = e.data?.status ?? (typeof e.code === 'number' && e.code >= 100 && e.code < 600 ? e.code : undefined) ?? statusFromMessage(e.message);
  const message = e.message ?? String(err);
  if (e.name === 'UnauthorizedError' || status === 401 || status === 403) {
    return new ScanFailure('auth', `HTTP ${status ?? 401}: the server refused the credentials`);
  }
  const code = e.cause?.code ?? (typeof e.code === 'string' ? e.code : undefined);
  if (code && /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ECONNRESET/.test(code)) {
    return new ScanFailure('unreachable', `${code}: cannot reach the server`);
  }
  if (/fetch failed/i.test(message)) return new ScanFailure('unreachable', `cannot reach the server (${message})`);
  return new ScanFailure('protocol', status ? `HTTP ${status}: ${message}` : message);
}

function statusFromMessage(message: string | undefined): number | undefined {
  const m = /\b(?:HTTP |code \(?|status )(\d{3})\b/.exec(message ?? '');
  return m ? Number(m[1]) : undefined;
}
