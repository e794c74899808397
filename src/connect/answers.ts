/**
 * An ok Streamable HTTP answer, read as the JSON-RPC messages it carries: a JSON body (one message
 * or a batch), or an event stream whose `message` events carry one each. Every byte counts against
 * `limit`, the whole stream included, and the rest is never read.
 */
import { createParser } from 'eventsource-parser';
import { readBody } from '../io/fetch.js';
import { notJsonRpc } from './error-body.js';
import { ScanFailure } from './failure.js';

type Message = Record<string, unknown>;

/** How an answer's body is read, by its content type's essence (parameters and case aside). */
export function answerKind(contentType: string | null): 'json' | 'events' | undefined {
  const essence = contentType?.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' ? 'json' : essence === 'text/event-stream' ? 'events' : undefined;
}

const tooLarge = (limit: number) => new ScanFailure('protocol', `response body exceeded ${limit} bytes`);

/**
 * A request, a notification or a response, as JSON-RPC 2.0 frames them; anything else (an internal
 * service's JSON that happens to parse) is no answer. Unknown members are left to the reader
 * (rpc.ts reads only what it needs), as on stdio.
 */
function isMessage(v: unknown): v is Message {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const m = v as Message;
  return m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m);
}

/** A JSON body's messages, each delivered; a body that is not JSON-RPC fails whole, quoted by size only. */
export async function readJson(res: Response, limit: number, deliver: (m: Message) => void): Promise<void> {
  // An announced length within the bound needs no counting: fetch fails a body that runs past it.
  const declared = Number(res.headers.get('content-length') ?? NaN);
  let text: string;
  if (declared >= 0 && declared <= limit) text = await res.text();
  else {
    const body = await readBody(res, limit);
    if ('tooLarge' in body) throw tooLarge(limit);
    text = body.bytes.toString('utf8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0 || !messages.every(isMessage)) {
    throw new ScanFailure('protocol', notJsonRpc(res.headers.get('content-type'), Buffer.byteLength(text)));
  }
  for (const m of messages) deliver(m);
}

/**
 * An event stream's messages, delivered as they come, until the server ends it; resolves with
 * whether a response (a result or an error) was among them. An event that is no JSON-RPC message
 * is skipped, as the SDK's transport skips it, and so are events of another type.
 */
export async function readEvents(res: Response, limit: number, deliver: (m: Message) => void): Promise<boolean> {
  let answered = false;
  const parser = createParser({
    onEvent: (event) => {
      if ((event.event && event.event !== 'message') || !event.data) return;
      let m: unknown;
      try {
        m = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!isMessage(m)) return;
      if ('result' in m || 'error' in m) answered = true;
      deliver(m);
    },
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (seen > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    parser.feed(decoder.decode(value, { stream: true }));
  }
  // An event the stream ended inside of is dropped, as the spec (and the SDK's parser stream) drops it.
  parser.feed(decoder.decode());
  return answered;
}
