/**
 * The install loop the package types beyond npm share: each distinct package once, in parallel
 * under a limit, bounded by `signal`; an entry a failed or interrupted install left is removed,
 * so that it is never taken for installed.
 */
import pLimit from 'p-limit';
import type { InstallContext } from './package-kind.js';
import type { InstallResult } from './npm.js';
import type { Target } from './types.js';

export interface EachInstaller {
  spec(target: Target): string;
  installed(target: Target, cacheDir: string): boolean;
  /** Installs one package; resolves with the error, or undefined when it is installed. */
  one(target: Target, ctx: InstallContext): Promise<string | undefined>;
  /** Removes what a failed install left. */
  cleanup(target: Target, cacheDir: string): Promise<void>;
}

export async function installEach(targets: Target[], ctx: InstallContext, kind: EachInstaller): Promise<InstallResult[]> {
  const limit = pLimit(ctx.concurrency);
  const distinct = new Map(targets.map((t) => [kind.spec(t), t]));
  return Promise.all(
    [...distinct].map(([spec, target]) =>
      limit(async (): Promise<InstallResult> => {
        if (ctx.signal?.aborted) return { spec, ok: false, ms: 0, error: 'interrupted' };
        if (kind.installed(target, ctx.cacheDir)) return { spec, ok: true, ms: 0 };
        const started = performance.now();
        let error: string | undefined;
        try {
          error = await kind.one(target, ctx);
        } catch (err) {
          error = (err as Error).message;
        }
        if (ctx.signal?.aborted) error = 'interrupted';
        if (error !== undefined) await kind.cleanup(target, ctx.cacheDir);
        return { spec, ok: error === undefined, ms: Math.round(performance.now() - started), ...(error === undefined ? {} : { error }) };
      }).then((r) => {
        ctx.onDone?.(r);
        return r;
      }),
    ),
  );
}

const BASE_ENV = /^(?:PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|TEMP|TMP|LANG|LC_ALL|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY)$/i;

/** For pip, uv, docker and podman: the basics, proxies and CA settings, none of their own config variables. */
export function installerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const keep = Object.entries(process.env).filter(([k, v]) => v !== undefined && BASE_ENV.test(k)) as [string, string][];
  return { ...Object.fromEntries(keep), ...extra };
}
