import type { AttemptRun } from './attempts.js';
import { keptSession } from './budget.js';
import type { Channel } from './channel.js';
import { memoKey } from './era-memo.js';
import { ScanFailure } from './failure.js';
import { negotiate, type Negotiated } from './negotiate.js';
import type { RpcClient } from './rpc.js';

export interface Connection {
  channel: Channel;
  rpc: RpcClient;
  stop: ReturnType<typeof stopOn>;
  skipProbe?: string;
}

/** Settles what is still in flight (a request nobody waits for) and clears its timer. */
export function endConnection(conn: Connection): Promise<void> {
  conn.stop.dispose();
  return conn.channel.close().then(() => conn.rpc.fail(new ScanFailure('exited', 'connection closed')));
}

/** The deadline and the signal, as one promise that rejects (and fails every pending request). */
export function stopOn(rpc: RpcClient, run: AttemptRun) {
  let stop: (reason: ScanFailure) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {});
  const halt = (reason: ScanFailure) => {
    rpc.fail(reason);
    stop(reason);
  };
  const timer = setTimeout(
    () => halt(new ScanFailure('timeout', `no complete answer within ${run.opts.timeoutMs} ms (--timeout)`)),
    run.remainingMs(),
  );
  const onAbort = () => halt(new ScanFailure('interrupted', 'interrupted'));
  run.opts.signal?.addEventListener('abort', onAbort);
  return {
    stopped,
    clearDeadline: () => clearTimeout(timer),
    dispose: () => {
      run.opts.signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    },
  };
}

/** Only the kept copy stays referenced: a 16 MB capabilities object is not held while listing. */
export async function negotiateSession(run: AttemptRun, { rpc, channel, skipProbe }: Connection): Promise<Negotiated> {
  const remembered = run.opts.eraMemo?.isSilentLegacy(memoKey(run.target));
  return keptSession(
    await negotiate(rpc, {
      probeTimeoutMs: run.opts.probeTimeoutMs,
      remainingMs: run.remainingMs,
      http: channel.kind !== 'stdio',
      answersEveryRequest: channel.kind === 'streamable',
      setVersion: (v) => channel.setProtocolVersion?.(v),
      skipProbe:
        skipProbe ?? (remembered ? 'remembered as silent before initialize: server/discover not sent' : undefined),
    }),
  );
}
