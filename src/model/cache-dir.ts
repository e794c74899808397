import os from 'node:os';
import path from 'node:path';

/** idemscan's cache (npm installs, OAuth tokens, the era memo): $IDEMSCAN_CACHE, else the XDG cache. */
export function defaultCacheDir(): string {
  return (
    process.env.IDEMSCAN_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'idemscan')
  );
}
