// undici's own API, not fetch, keeping fetch's rules: why in docs/INTERNALS.md, "Connection".
import { request as undiciRequest, type Dispatcher } from 'undici';
import { BAD_PORTS } from './bad-ports.js';
import { allOf, headOf, type RedirectPolicy } from './fetch.js';

/** `header` takes lower-case names; `body` is not yet read. */
export interface Answer {
  status: number;
  header(name: string): string | null;
  body: Dispatcher.ResponseData['body'];
  /** No body: what the OAuth layer reads of a refusal. */
  asResponse(): Response;
}

export interface AnswerOptions {
  method: 'POST' | 'GET' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirects: RedirectPolicy;
  dispatcher?: Dispatcher;
}

/** Throws as fetch throws: a TypeError whose cause says why. */
export async function answerOf(url: URL, opts: AnswerOptions): Promise<Answer> {
  let at = url;
  for (let hop = 1; ; hop++) {
    const answer = await once(at, opts);
    const location = answer.header('location');
    if (answer.status < 300 || answer.status > 399 || !location) return answer;
    await answer.body.dump().catch(() => {});
    at = opts.redirects.follow(location, at, hop, answer.status);
  }
}

async function once(url: URL, opts: AnswerOptions): Promise<Answer> {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (BAD_PORTS.has(port)) throw new TypeError('fetch failed', { cause: new Error('bad port') });
  let res: Dispatcher.ResponseData;
  try {
    res = await undiciRequest(url, {
      method: opts.method,
      headers: opts.headers,
      body: opts.body,
      signal: opts.signal,
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    });
  } catch (err) {
    throw new TypeError('fetch failed', { cause: err });
  }
  // The body may be read after an await: an unheard stream error would end the process meanwhile.
  res.body.on('error', () => {});
  const header = (name: string): string | null => {
    const v = res.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  return {
    status: res.statusCode,
    header,
    body: res.body,
    asResponse: () => new Response(null, { status: res.statusCode, headers: headersOf(res.headers) }),
  };
}

function headersOf(raw: Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

type Body = Answer['body'];

/** An announced length is trusted as fetch trusts it. */
export async function bodyText(answer: Answer, maxBytes: number): Promise<{ text: string } | { tooLarge: true }> {
  const declared = Number(answer.header('content-length') ?? NaN);
  if (declared > maxBytes) {
    answer.body.destroy();
    return { tooLarge: true };
  }
  // The parser reads no byte past Content-Length.
  if (declared >= 0) return { text: await answer.body.text() };
  const all = await allOf(answer.body as AsyncIterable<Buffer>, maxBytes);
  return 'tooLarge' in all ? all : { text: all.bytes.toString('utf8') };
}

/** For a body only ever quoted (an error page). */
export function bodyHead(body: Body, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  return headOf(body as AsyncIterable<Buffer>, maxBytes);
}
