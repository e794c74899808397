/**
 * Remembered era verdicts. A legacy server that stays silent until `initialize` costs the whole
 * probe timeout on every scan; once we have seen that, later scans of the same launch skip the
 * probe. Verdicts expire after a week, so a server that gained 2026-07-28 support (and still
 * answers `initialize`) is probed again; one that dropped `initialize` is probed at once.
 * Keys are hashes: the launch (with its env) may hold secrets, and the cache is a plain file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseJson } from '../model/bounded-input.js';

const FILE = 'eras.json';
const TTL_MS = 7 * 24 * 3600 * 1000;
/** One hash and time per server: a flat object, a few MB for a census. */
const MEMO_BOUNDS = { maxBytes: 16 * 1024 * 1024, maxDepth: 1 };

export class EraMemo {
  private constructor(private readonly entries: Map<string, number>) {}

  static load(cacheDir: string): EraMemo {
    try {
      const parsed = parseJson(readFileSync(path.join(cacheDir, FILE), 'utf8'), MEMO_BOUNDS);
      const data = ('value' in parsed ? parsed.value : {}) as Record<string, unknown>;
      const fresh = Object.entries(data).filter(
        (e): e is [string, number] => typeof e[1] === 'number' && Date.now() - e[1] < TTL_MS,
      );
      return new EraMemo(new Map(fresh));
    } catch {
      return new EraMemo(new Map());
    }
  }

  save(cacheDir: string): void {
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(path.join(cacheDir, FILE), JSON.stringify(Object.fromEntries(this.entries), null, 1));
    } catch {
      // A read-only cache only costs the probe timeout next time.
    }
  }

  isSilentLegacy(key: string): boolean {
    return this.entries.has(key);
  }

  rememberSilentLegacy(key: string): void {
    this.entries.set(key, Date.now());
  }
}

/** "The same server": the exact launch with its environment, or the URL with its headers. */
export function memoKey(launch: {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}): string {
  const identity = launch.url
    ? [launch.url, launch.headers ?? {}]
    : [launch.command, launch.args ?? [], Object.entries(launch.env ?? {}).sort()];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}
