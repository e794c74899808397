/** No redirect followed (only where --base-url says); failures are values, so the caller keeps what it read. */
import { fetchBody, type Fetched as FetchedBody } from '../../io/fetch.js';
import { parseJson } from '../../model/bounded-input.js';
import { InputError } from '../../model/input-error.js';
import { DEFAULT_REGISTRY } from './default-registry.js';

/** A page of 100 full server.json entries is well under 1 MiB. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 30_000;

/** A failure is raw text (it quotes the URL and what the network said): escaped where it is printed. */
export type Fetched = { ok: true; value: unknown } | { ok: false; error: string };

/** The base URL, checked: http(s), no query or fragment (paths are appended to it); else an InputError. */
export function baseUrlOf(given: string | undefined): URL {
  const text = given ?? DEFAULT_REGISTRY;
  const fail = (why: string) => new InputError(why, { field: '--base-url' });
  if (!URL.canParse(text)) throw new InputError(`--base-url ${text}: not a URL`);
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail(`${url.protocol} is not http or https`);
  if (url.search || url.hash) throw fail('no query or fragment (the paths are appended to it)');
  if (url.username || url.password) throw fail('no credentials in the URL');
  return url;
}

/** `base` + `path` (which starts with /v0.1/), keeping a base's own path prefix. */
export const apiUrl = (base: URL, path: string): URL => new URL(base.href.replace(/\/$/, '') + path);

export async function getJson(
  url: URL,
  opts: { maxBytes?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Fetched> {
  const maxBytes = opts.maxBytes ?? MAX_PAGE_BYTES;
  const timeoutMs = opts.timeoutMs ?? PAGE_TIMEOUT_MS;
  const where = url.href;
  const got = await fetchBody(url, {
    maxBytes,
    timeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
    init: { redirect: 'manual', headers: { accept: 'application/json' } },
  });
  if (!got.ok) return { ok: false, error: `${where}: ${failureWords(got, maxBytes, timeoutMs)}` };
  // Bounded in bytes only: depth is each entry's (docs/INTERNALS.md, Depth).
  const parsed = parseJson(got.bytes.toString('utf8'), { maxBytes, maxDepth: Infinity });
  if ('error' in parsed) return { ok: false, error: `${where}: the answer is not JSON` };
  return { ok: true, value: parsed.value };
}

function failureWords(got: Exclude<FetchedBody, { ok: true }>, maxBytes: number, timeoutMs: number): string {
  switch (got.why) {
    case 'status': {
      const moved = got.status >= 300 && got.status < 400 ? ' (a redirect: not followed)' : '';
      return `HTTP ${got.status}${moved}`;
    }
    case 'too-large':
      return got.declared === undefined
        ? `more than ${maxBytes} bytes, above the page bound`
        : `${got.declared} bytes, above the page bound of ${maxBytes}`;
    case 'interrupted':
      return 'interrupted';
    case 'timeout':
      return `no answer within ${timeoutMs / 1000} s`;
    case 'failed':
      return (got.error as { cause?: Error }).cause?.message ?? got.error.message;
  }
}
