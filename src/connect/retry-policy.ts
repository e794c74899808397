/** Each retry is once, on a fresh connection, within the same deadline; other failures are the server's answer. */
import { memoKey, type EraMemo } from './era-memo.js';
import { ScanFailure } from './failure.js';
import type { LaunchPlan } from '../launch/plan.js';

export interface RestartContext {
  target: LaunchPlan;
  opts: { signal?: AbortSignal; eraMemo?: EraMemo };
  /** Negotiated at least once (then the exit was not about the probe). */
  listed: boolean;
  remainingMs: number;
}

/** Less than this left, a fresh start cannot finish: the first failure is reported. */
const RESTART_MIN_MS = 1_000;

export const RETRY = {
  /** Some 2025-era servers exit on any first request but `initialize`; returns the note for a probe-less restart. */
  restartWithoutProbe(err: unknown, ctx: RestartContext): string | undefined {
    const exitedBeforeAnswering = err instanceof ScanFailure && err.kind === 'exited' && !ctx.listed;
    if (!exitedBeforeAnswering || ctx.opts.signal?.aborted || ctx.opts.eraMemo?.isSilentLegacy(memoKey(ctx.target)))
      return undefined;
    if (ctx.remainingMs < RESTART_MIN_MS) return undefined;
    return 'exited on server/discover without answering; started again and sent initialize only';
  },

  /** A server that refuses Streamable HTTP with 404 or 405 gets the older HTTP+SSE transport. */
  fallBackToSse(err: unknown): boolean {
    return err instanceof ScanFailure && err.kind === 'protocol' && (err.status === 404 || err.status === 405);
  },

  /** A server that needs a sign-in, in a scan that may start one (`--oauth`), is tried again signed in. */
  signInAndRetry(auth: { canSignIn: boolean }): boolean {
    return auth.canSignIn;
  },
} as const;
