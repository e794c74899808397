/** An ok Streamable HTTP answer's JSON-RPC messages: every byte counts against `limit`, the rest is never read. */
import { createParser } from 'eventsource-parser';
import { BodyTooLarge, within } from '../io/fetch.js';
import { bodyText, type Answer } from '../io/http-request.js';
import { notJsonRpc } from './error-body.js';
import { ScanFailure } from './failure.js';
import { tooLarge } from './http-shared.js';

type Message = Record<string, unknown>;

export function answerKind(contentType: string | null): 'json' | 'events' | undefined {
  const essence = contentType?.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' ? 'json' : essence === 'text/event-stream' ? 'events' : undefined;
}

/** JSON-RPC 2.0's three shapes; unknown members are left to the reader (rpc.ts), as on stdio. */
function isMessage(v: unknown): v is Message {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const m = v as Message;
  return m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'result' in m || 'error' in m);
}

/** A body that is not JSON-RPC fails whole, quoted by size only. */
export async function readJson(answer: Answer, limit: number, deliver: (m: Message) => void): Promise<void> {
  const body = await bodyText(answer, limit);
  if ('tooLarge' in body) throw tooLarge(limit);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    parsed = undefined;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0 || !messages.every(isMessage)) {
    throw new ScanFailure('protocol', notJsonRpc(answer.header('content-type'), Buffer.byteLength(body.text)));
  }
  for (const m of messages) deliver(m);
}

/** Resolves with whether a response came; an event that is no JSON-RPC message is skipped, as the SDK skips it. */
export async function readEvents(answer: Answer, limit: number, deliver: (m: Message) => void): Promise<boolean> {
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
  const decoder = new TextDecoder();
  try {
    for await (const chunk of within(answer.body as AsyncIterable<Buffer>, limit))
      parser.feed(decoder.decode(chunk, { stream: true }));
  } catch (err) {
    throw err instanceof BodyTooLarge ? tooLarge(limit) : err;
  }
  // An event the stream ended inside of is dropped, as the spec (and the SDK's parser stream) drops it.
  parser.feed(decoder.decode());
  return answered;
}
