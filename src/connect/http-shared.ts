import { readHead } from '../io/fetch.js';
import { bodyHead, type Answer } from '../io/http-request.js';
import { basicAuthFromUrl } from '../redact/redact.js';
import type { AuthProvider } from '@modelcontextprotocol/client';
import { bounded } from '../model/bounds.js';
import { isErrorObject, unquotedBody } from './error-body.js';
import { ScanFailure } from './failure.js';

export interface HttpChannelOptions {
  url: string;
  headers?: Record<string, string>;
  maxBodyBytes: number;
  /** Bearer tokens and their refresh on 401 (connect/oauth/server-auth.ts). */
  authProvider?: AuthProvider;
  /** Sees a refused answer's status and headers first (a 401's WWW-Authenticate). */
  onResponse?: (res: Response) => void;
}

export const tooLarge = (limit: number): ScanFailure =>
  new ScanFailure('protocol', `response body exceeded ${limit} bytes`);

/** A failure's words, which may quote a refused body, up to this many characters in the report. */
const EXCERPT_CHARS = 2_000;

export function excerpt(failure: ScanFailure): ScanFailure {
  return failure.message.length <= EXCERPT_CHARS
    ? failure
    : new ScanFailure(failure.kind, bounded(failure.message, EXCERPT_CHARS), failure.status);
}

/** A refused body is only quoted, and only when it is an error object (error-body.ts). */
const ERROR_BODY_BYTES = 16 * 1024;

/** Bodies sent `once`: a second copy (after a 401 refresh, a 403 step-up, a 307/308) is refused before it goes. */
export class SentOnce {
  private readonly held = new Map<string, { sent: boolean; status?: number }>();

  hold(body: string): void {
    if (!this.held.has(body)) this.held.set(body, { sent: false });
  }

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

export async function quotableBody(res: Response): Promise<string> {
  // Past ERROR_BODY_BYTES the rest is never downloaded.
  const { bytes, cut } = await readHead(res, ERROR_BODY_BYTES);
  return quoted(bytes, cut, res.headers.get('content-type'));
}

/** The same, of an answer read by undici's own API (streamable.ts). */
export async function quotableAnswer(answer: Answer): Promise<string> {
  const { bytes, cut } = await bodyHead(answer.body, ERROR_BODY_BYTES);
  return quoted(bytes, cut, answer.header('content-type'));
}

function quoted(bytes: Buffer, cut: boolean, contentType: string | null): string {
  const text = bytes.toString('utf8');
  return !cut && isErrorObject(text) ? text : unquotedBody(contentType, cut ? ERROR_BODY_BYTES : bytes.length, cut);
}

export function endpointOf(
  target: string,
  extra?: Record<string, string>,
): { url: URL; headers: Record<string, string> } {
  const url = new URL(target);
  const headers = { ...extra };
  // fetch refuses URLs with credentials (and would put them in its error): send them as Basic auth.
  const basic = basicAuthFromUrl(url);
  if (basic) {
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) headers.Authorization = basic;
    url.username = '';
    url.password = '';
  }
  return { url, headers };
}
