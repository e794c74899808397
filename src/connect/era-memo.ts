/**
 * Remembered era verdicts. A legacy server that stays silent until `initialize` costs the whole
 * probe timeout on every scan; once we have seen that, later scans of the same launch go straight
 * to `initialize` (and still fall back to `server/discover` if it is refused, so an upgraded
 * server is found again).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type EraMemo = Map<string, 'silent-legacy'>;

const FILE = 'eras.json';

export function loadEraMemo(cacheDir: string): EraMemo {
  try {
    const data = JSON.parse(readFileSync(path.join(cacheDir, FILE), 'utf8')) as Record<string, unknown>;
    return new Map(Object.entries(data).filter((e): e is [string, 'silent-legacy'] => e[1] === 'silent-legacy'));
  } catch {
    return new Map();
  }
}

export function saveEraMemo(cacheDir: string, memo: EraMemo): void {
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(path.join(cacheDir, FILE), JSON.stringify(Object.fromEntries(memo), null, 1));
  } catch {
    // A read-only cache only costs the probe timeout next time.
  }
}

/** What identifies "the same server": the exact launch, or the URL. */
export function memoKey(launch: { command?: string; args?: string[]; url?: string; npm?: string }): string {
  return launch.npm ?? launch.url ?? JSON.stringify([launch.command, ...(launch.args ?? [])]);
}
