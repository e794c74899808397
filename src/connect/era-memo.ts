/** Servers silent until `initialize`, remembered a week (docs/INTERNALS.md); keys are hashed: launches hold secrets. */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readBoundedTextSync } from '../io/read.js';
import { parseJson } from '../model/bounded-input.js';
import type { LaunchPlan } from '../launch/plan.js';

const FILE = 'eras.json';
const TTL_MS = 7 * 24 * 3600 * 1000;
/** One hash and time per server: a flat object, a few MB for a census. */
const MEMO_BOUNDS = { maxBytes: 16 * 1024 * 1024, maxDepth: 1 };

export class EraMemo {
  private constructor(private readonly entries: Map<string, number>) {}

  /** A server run without --sandbox could plant a FIFO or a link here. */
  static load(cacheDir: string): EraMemo {
    const read = readBoundedTextSync(path.join(cacheDir, FILE), { maxBytes: MEMO_BOUNDS.maxBytes, noFollow: true });
    const parsed = 'text' in read ? parseJson(read.text, MEMO_BOUNDS) : read;
    const data = 'value' in parsed && parsed.value !== null && typeof parsed.value === 'object' ? parsed.value : {};
    const fresh = Object.entries(data).filter(
      (e): e is [string, number] => typeof e[1] === 'number' && Date.now() - e[1] < TTL_MS,
    );
    return new EraMemo(new Map(fresh));
  }

  /** Renamed over: whatever was planted at the name is replaced, never opened. */
  save(cacheDir: string): void {
    const tmp = path.join(cacheDir, `${FILE}.${process.pid}.tmp`);
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.entries), null, 1), { flag: 'wx' });
      renameSync(tmp, path.join(cacheDir, FILE));
    } catch {
      // A read-only cache only costs the probe timeout next time.
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing was written
      }
    }
  }

  isSilentLegacy(key: string): boolean {
    return this.entries.has(key);
  }

  rememberSilentLegacy(key: string): void {
    this.entries.set(key, Date.now());
  }
}

/** "The same server": the exact launch with its own environment, or the URL with its headers. */
export function memoKey(launch: LaunchPlan): string {
  const identity =
    launch.transport === 'stdio'
      ? [launch.command, launch.args, Object.entries(launch.env).sort()]
      : launch.transport === 'static'
        ? [] // nothing is negotiated: never remembered
        : [launch.url, launch.headers ?? {}];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}
