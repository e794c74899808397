/** Replies to a server's requests, bounded per connection: docs/INTERNALS.md. */
import { METHOD_NOT_FOUND } from './protocol.js';

/** Replies being written (stdio: not yet taken by the pipe; HTTP: their POST not yet answered). */
export const REPLIES_IN_FLIGHT = 4;
/** Replies a connection gets in all: a healthy server pings a few times a minute. */
export const MAX_REPLIES = 1_000;
/** A reply echoes the request's id: a string id longer than this gets no reply. */
const MAX_REPLY_ID_CHARS = 256;

export type Send = (reply: Record<string, unknown>) => Promise<void>;

export class Replies {
  private inFlight = 0;
  private sent = 0;

  constructor(private readonly send: Send) {}

  /** A `ping` is answered, anything else refused, both within the bounds. */
  answer(id: string | number, method: string): void {
    if (!this.admits(id)) return;
    this.inFlight++;
    this.sent++;
    const reply =
      method === 'ping'
        ? { jsonrpc: '2.0', id, result: {} }
        : { jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } };
    this.send(reply)
      .catch(() => {})
      .finally(() => this.inFlight--);
  }

  private admits(id: string | number): boolean {
    if (this.inFlight >= REPLIES_IN_FLIGHT || this.sent >= MAX_REPLIES) return false;
    return typeof id === 'number' || id.length <= MAX_REPLY_ID_CHARS;
  }
}
