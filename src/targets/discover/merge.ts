/** Header values are not part of the key: clients holding different tokens for one URL reach one server. */
import { inputOf } from '../kind.js';
import type { Target } from '../types.js';

interface ListedBy {
  client: string;
  file: string;
}

/** `project` only when no user file lists it too (user files merge first). */
export type FoundTarget = Target & { listedBy: ListedBy[]; scope?: 'user' | 'project' };

export function identity(target: Target): string {
  const t = inputOf(target);
  const env = Object.entries(t.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const headers = Object.keys(t.headers ?? {})
    .map((h) => h.toLowerCase())
    .sort();
  return JSON.stringify([
    t.transport,
    t.npm ?? '',
    t.command ?? '',
    t.args ?? [],
    env,
    t.cwd ?? '',
    t.url ?? '',
    headers,
  ]);
}

/** A taken name becomes `name (Client)`, then `name (Client) #2`, as the loader renames duplicates. */
export function mergeTargets(base: Target[], found: FoundTarget[]): Target[] {
  const out = [...base];
  const byIdentity = new Map<string, Target>(base.map((t) => [identity(t), t]));
  const names = new Set(base.map((t) => t.name));
  for (const t of found) {
    const id = identity(t);
    const same = byIdentity.get(id);
    if (same) {
      const listed = (same.listedBy ??= []);
      for (const l of t.listedBy) if (!listed.some((x) => x.client === l.client && x.file === l.file)) listed.push(l);
      continue;
    }
    if (names.has(t.name)) t.name = unique(`${t.name} (${t.listedBy[0]?.client ?? 'discovered'})`, names);
    names.add(t.name);
    byIdentity.set(id, t);
    out.push(t);
  }
  return out;
}

function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name} #${n}`;
  return candidate;
}
