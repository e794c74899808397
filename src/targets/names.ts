/** Checked wherever a target is given: names and values become lines other programs parse. */
import { refusedEnvName } from './refused-env.js';

const noNul = (s: string) => !s.includes('\0');

/** C0, DEL and C1 (NEL): in a file read a line at a time, one would start another line. */
const hasControl = (s: string) => /\p{Cc}/u.test(s);

/** A name with `=` would set another variable; loader and engine variables are refused (refused-env.ts). */
export function envNameProblem(name: string): string | undefined {
  if (name === '') return 'empty environment variable name';
  if (name.includes('=') || !noNul(name)) return 'an environment variable name cannot contain "=" or NUL';
  if (hasControl(name))
    return 'an environment variable name cannot contain a line break, tab or other control character';
  return refusedEnvName(name);
}

/** An HTTP header name is a token (RFC 9110); anything else makes fetch throw on every request. */
const HEADER_NAME = /^[!#$%&'*+.^\w`|~-]+$/;
/** Headers undici refuses on every request (its core/request.js): the connection and its framing are its own. */
const CLIENT_HEADERS = new Set([
  'connection',
  'content-length',
  'expect',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
]);
export function headerNameProblem(name: string): string | undefined {
  if (!HEADER_NAME.test(name)) return 'not a valid HTTP header name';
  if (CLIENT_HEADERS.has(name.toLowerCase()))
    return "set by idemscan's HTTP client for each request; a target cannot send it";
  return undefined;
}
/** CR or LF in a header value would start another header; undici sends only tab, printable ASCII and Latin-1. */
export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n\0]/.test(value)) return 'contains a line break or NUL';
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value))
    return 'contains a control character or a character beyond Latin-1, which an HTTP header cannot carry';
  return undefined;
}

/** The first `env` or `headers` entry (given as data) that cannot be sent: its name and why. */
export function entryProblem(record: Record<string, string>, kind: 'env' | 'headers'): [string, string] | undefined {
  for (const [name, value] of Object.entries(record)) {
    const problem = kind === 'env' ? envNameProblem(name) : (headerNameProblem(name) ?? headerValueProblem(value));
    if (problem) return [name, problem];
  }
  return undefined;
}
