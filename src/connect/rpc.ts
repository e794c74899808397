/** Results stay raw. Why not the SDK's client: docs/INTERNALS.md. */
import type { Channel, SendOptions } from './channel.js';
import { ScanFailure } from './failure.js';
import { Replies } from './replies.js';

export type RpcOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: number; message: string; data?: unknown } };

interface Pending {
  resolve: (outcome: RpcOutcome) => void;
  reject: (err: ScanFailure) => void;
  timer: NodeJS.Timeout;
}

export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedWith?: ScanFailure;
  /** Settles (rejects) once the client fails: what a wait on anything else of this server races. */
  private readonly failed: Promise<never>;
  private onFailed: (reason: ScanFailure) => void = () => {};
  private readonly replies: Replies;

  constructor(private readonly channel: Channel) {
    channel.events.onmessage = (m) => this.onMessage(m);
    channel.events.onclose = (reason) => this.fail(reason);
    this.failed = new Promise<never>((_, reject) => (this.onFailed = reject));
    this.failed.catch(() => {});
    this.replies = new Replies((reply) => channel.send(reply));
  }

  /** Fails every request in flight, every wait on a notification, and every later one, with this reason. */
  fail(reason: ScanFailure): void {
    this.closedWith ??= reason;
    this.onFailed(this.closedWith);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(reason);
      this.pending.delete(id);
    }
  }

  /** The id the next request will carry (the probe's evidence names each call's id). */
  peekNextId(): number {
    return this.nextId;
  }

  /** Rejects with a `timeout` ScanFailure after `timeoutMs`; the caller decides what silence means. */
  request(method: string, params: Record<string, unknown>, timeoutMs: number, send?: SendOptions): Promise<RpcOutcome> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<RpcOutcome>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.pending.delete(id);
          reject(new ScanFailure('timeout', `no answer to ${method} within ${timeoutMs} ms`));
        },
        Math.max(1, timeoutMs),
      );
      this.pending.set(id, { resolve, reject, timer });
      this.channel.send({ jsonrpc: '2.0', id, method, params }, send).catch((err: unknown) => {
        const p = this.pending.get(id);
        if (!p) return;
        clearTimeout(p.timer);
        this.pending.delete(id);
        p.reject(
          err instanceof ScanFailure ? err : new ScanFailure('protocol', String((err as Error)?.message ?? err)),
        );
      });
    });
  }

  /** Sent, or given up at the deadline or the signal (an answer to a notification can be an endless stream). */
  async notify(method: string, params: Record<string, unknown> = {}): Promise<void> {
    if (this.closedWith) throw this.closedWith;
    await Promise.race([this.channel.send({ jsonrpc: '2.0', method, params }), this.failed]);
  }

  private onMessage(message: Record<string, unknown>): void {
    // Some servers echo our numeric id back as a string; accept "7" for 7.
    const id = typeof message.id === 'string' && /^\d{1,15}$/.test(message.id) ? Number(message.id) : message.id;
    if (typeof id !== 'number' || !('result' in message || 'error' in message)) {
      // A server's requests (sampling, roots, ping) are answered so it does not wait on us; notifications ignored.
      const asked = message.id;
      if ((typeof asked === 'number' || typeof asked === 'string') && typeof message.method === 'string')
        this.replies.answer(asked, message.method);
      return;
    }
    const p = this.pending.get(id);
    if (!p) return; // a late answer to a request we gave up on (the era probe)
    clearTimeout(p.timer);
    this.pending.delete(id);
    if ('error' in message) {
      const e = (message.error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
      p.resolve({
        ok: false,
        error: { code: typeof e.code === 'number' ? e.code : 0, message: String(e.message ?? ''), data: e.data },
      });
    } else {
      const result = message.result;
      if (result && typeof result === 'object' && !Array.isArray(result)) {
        p.resolve({ ok: true, result: result as Record<string, unknown> });
      } else {
        p.reject(new ScanFailure('protocol', 'the server answered with a result that is not an object'));
      }
    }
  }
}
