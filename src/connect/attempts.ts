/** The connections one server gets, in the order retry-policy.ts allows. */
import { bounded } from '../model/bounds.js';
import { LIMITS } from '../model/limits.js';
import type { Channel } from './channel.js';
import type { LaunchPlan } from '../launch/plan.js';
import { remoteOf, type ConnectOptions } from './connect-options.js';
import { ScanFailure } from './failure.js';
import type { HttpChannelOptions } from './http-shared.js';
import type { ServerAuth } from './oauth/server-auth.js';
import { RETRY } from './retry-policy.js';
import { StdioChannel } from './stdio.js';

export interface Attempt {
  channel: Channel;
  skipProbe?: string;
}

export interface AttemptRun {
  readonly target: LaunchPlan;
  readonly opts: ConnectOptions;
  /** Negotiated at least once (then an exit was not about the probe). */
  negotiated(): boolean;
  remainingMs(): number;
  /** The time a person took at the browser is not the server's. */
  extendDeadline(ms: number): void;
}

export interface Attempts {
  first(): Attempt;
  /** The next connection after `err`, or undefined: `err` stands. Rejects when a sign-in fails. */
  after(err: unknown): Promise<Attempt | undefined>;
}

export function stdioAttempts(run: AttemptRun): Attempts {
  const { target, opts } = run;
  if (target.transport !== 'stdio') throw new ScanFailure('spawn', 'no command to start');
  const start = (skipProbe?: string): Attempt => ({
    skipProbe,
    channel: new StdioChannel({
      command: target.command,
      args: target.args,
      env: target.spawnEnv,
      cwd: target.cwd,
      maxFrameBytes: opts.maxFrameBytes,
      stderrTailBytes: opts.stderrTailBytes,
      killGraceMs: opts.killGraceMs,
    }),
  });
  let restarted = false;
  return {
    first: () => start(),
    after: async (err) => {
      if (restarted) return undefined;
      const why = RETRY.restartWithoutProbe(err, {
        target,
        opts,
        listed: run.negotiated(),
        remainingMs: run.remainingMs(),
      });
      if (!why) return undefined;
      restarted = true;
      return start(why);
    },
  };
}

/** Loaded with the first HTTP target: a stdio scan never loads them. */
export interface HttpChannels {
  streamable: new (opts: HttpChannelOptions) => Channel;
  sse: new (opts: HttpChannelOptions) => Channel;
}

/** Streamable HTTP first, then HTTP+SSE on its refusal (`sse` targets: SSE only); all once more signed in. */
export function httpAttempts(run: AttemptRun, serverAuth: ServerAuth, channels: HttpChannels): Attempts {
  const { opts } = run;
  const target = remoteOf(run.target);
  const make = (kind: 'streamable' | 'sse'): Attempt => ({
    channel: new channels[kind]({
      url: target.url,
      headers: target.headers,
      maxBodyBytes: opts.maxFrameBytes,
      authProvider: serverAuth.transportAuth(),
      onResponse: (res) => serverAuth.observe(res),
    }),
  });
  const firstKind = target.transport === 'sse' ? 'sse' : 'streamable';
  let kind: 'streamable' | 'sse' = firstKind;
  let signedIn = false;
  const next = (k: 'streamable' | 'sse') => {
    kind = k;
    return make(k);
  };
  return {
    first: () => next(firstKind),
    after: async (err) => {
      if (kind === 'streamable' && RETRY.fallBackToSse(err)) return next('sse');
      if (signedIn || !RETRY.signInAndRetry(serverAuth)) return undefined;
      signedIn = true;
      await signIn(run, serverAuth);
      return next(firstKind);
    },
  };
}

async function signIn(run: AttemptRun, serverAuth: ServerAuth): Promise<void> {
  const started = Date.now();
  try {
    await serverAuth.signIn();
  } catch (signInErr) {
    throw new ScanFailure(
      'auth',
      `sign-in failed: ${bounded(String((signInErr as Error)?.message ?? signInErr), LIMITS.errorChars)}`,
    );
  } finally {
    run.extendDeadline(Date.now() - started);
  }
}
