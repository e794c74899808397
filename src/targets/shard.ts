/** Shard = hash of the name mod N: stable and order-free, balanced only statistically (docs/SCALING.md). */
import { createHash } from 'node:crypto';
import { InputError } from '../model/input-error.js';

/** Shard `index` of `count`, 1-based as in `--shard 1/3` ... `--shard 3/3`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `I/N` (1 <= I <= N); throws an InputError (of `--shard`) whose message explains what is expected. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new InputError(`expected I/N with 1 <= I <= N (e.g. 1/4), got "${text}"`, { field: '--shard' });
  }
  return { index, count };
}

export function shardOf(name: string, count: number): number {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`shard count must be a positive whole number, got ${count}`);
  const digest = createHash('sha256').update(name, 'utf8').digest();
  // 48 bits of the digest: the modulo bias is negligible for any realistic N.
  return (digest.readUIntBE(0, 6) % count) + 1;
}

export function selectShard<T extends { name: string }>(targets: readonly T[], shard: Shard): T[] {
  return targets.filter((t) => shardOf(t.name, shard.count) === shard.index);
}
