/** Only JSON-RPC and OAuth error bodies are quoted: an internal service's error page may hold its configuration. */
import { MAX_JSON_DEPTH, parseJson } from '../model/bounded-input.js';
import { bounded } from '../model/bounds.js';

/** Above what either caller reads of a body (an error page, an OAuth answer): they bound it first. */
const MAX_ERROR_OBJECT_BYTES = 1024 * 1024;

/** A JSON-RPC or an OAuth error object. */
export function isErrorObject(text: string): boolean {
  // Error objects are flat; one nested deeper than any file idemscan reads is not quoted.
  const got = parseJson(text, { maxBytes: MAX_ERROR_OBJECT_BYTES, maxDepth: MAX_JSON_DEPTH });
  if (!('value' in got)) return false;
  const parsed = got.value;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  const error = (parsed as { error?: unknown }).error;
  if (typeof error === 'string') return isOAuthError(parsed as Record<string, unknown>);
  if (!error || typeof error !== 'object' || Array.isArray(error)) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'number' && typeof message === 'string';
}

/** RFC 6749 §5.2: `error`, and optionally `error_description` and `error_uri`, all strings. */
function isOAuthError(o: Record<string, unknown>): boolean {
  return ['error_description', 'error_uri'].every((k) => o[k] === undefined || typeof o[k] === 'string');
}

/** What stands for a body that is not quoted: its content type and size, never its text. */
export function unquotedBody(contentType: string | null, bytes: number, cut: boolean): string {
  return `(${cut ? 'more than ' : ''}${bytes} bytes of ${typeOf(contentType)}, not quoted: only JSON-RPC and OAuth error objects are)`;
}

/** A parse or validation error would quote the body (`"db_passwor"...`), and it may be an internal service's. */
export function notJsonRpc(contentType: string | null | undefined, bytes: number | undefined): string {
  return bytes === undefined
    ? 'not a JSON-RPC message'
    : `not a JSON-RPC message: ${bytes} bytes of ${typeOf(contentType ?? null)}`;
}

const typeOf = (contentType: string | null) =>
  contentType ? bounded(contentType.split(';', 1)[0]!.trim(), 80) : 'no content type';
