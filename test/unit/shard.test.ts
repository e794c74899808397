import { describe, expect, it } from 'vitest';
import { parseShard, selectShard, shardOf } from '../../src/targets/shard.js';

const targets = (n: number, prefix = 'server') => Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}` }));

describe('parseShard', () => {
  it('reads I/N, 1-based', () => {
    expect(parseShard('1/4')).toEqual({ index: 1, count: 4 });
    expect(parseShard('4/4')).toEqual({ index: 4, count: 4 });
    expect(parseShard(' 2 / 3 ')).toEqual({ index: 2, count: 3 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
  });
  it('rejects anything else with a message saying what is expected', () => {
    for (const bad of ['0/4', '5/4', '1/0', '1', '1/', '/4', 'a/b', '1.5/4', '-1/4', '', '1/4/5']) {
      expect(() => parseShard(bad), bad).toThrow(/expected I\/N/);
    }
  });
});

describe('shards', () => {
  it('put every target in exactly one shard', () => {
    const all = targets(500);
    for (const count of [1, 2, 3, 7, 16]) {
      const shards = Array.from({ length: count }, (_, i) => selectShard(all, { index: i + 1, count }));
      const names = shards.flat().map((t) => t.name);
      expect(names).toHaveLength(all.length);
      expect(new Set(names)).toEqual(new Set(all.map((t) => t.name)));
    }
  });

  it('are deterministic and independent of the order of the list', () => {
    const all = targets(200);
    const reversed = [...all].reverse();
    for (let index = 1; index <= 5; index++) {
      const a = selectShard(all, { index, count: 5 }).map((t) => t.name);
      const b = selectShard(reversed, { index, count: 5 }).map((t) => t.name);
      expect(new Set(b)).toEqual(new Set(a));
      expect(selectShard(all, { index, count: 5 }).map((t) => t.name)).toEqual(a);
    }
    // Fixed values: the hash must not change between versions, or a CI matrix would reshuffle.
    expect(['everything', 'filesystem', 'github', 'redis', 'memory', 'slack'].map((n) => shardOf(n, 4))).toEqual([
      4, 3, 2, 4, 2, 1,
    ]);
  });

  it('keep their original order within a shard', () => {
    const all = targets(100);
    const one = selectShard(all, { index: 2, count: 3 });
    const positions = one.map((t) => all.indexOf(t));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('adding a server moves no other server', () => {
    const all = targets(300);
    const added = { name: 'a-new-server' };
    const more = [...all.slice(0, 150), added, ...all.slice(150)];
    for (let index = 1; index <= 6; index++) {
      const before = selectShard(all, { index, count: 6 });
      const after = selectShard(more, { index, count: 6 });
      expect(after.filter((t) => t !== added)).toEqual(before);
    }
  });

  it('are roughly balanced', () => {
    const all = targets(10_000, 'registry-entry');
    for (const count of [4, 10, 32]) {
      const sizes = Array.from({ length: count }, () => 0);
      for (const t of all) sizes[shardOf(t.name, count) - 1]! += 1;
      const mean = all.length / count;
      // Binomial spread: within 5 standard deviations of the mean on every shard.
      const sd = Math.sqrt(all.length * (1 / count) * (1 - 1 / count));
      for (const size of sizes) expect(Math.abs(size - mean)).toBeLessThan(5 * sd);
      expect(Math.max(...sizes) / mean).toBeLessThan(1.15);
    }
  });

  it('with more shards than targets, some shards are empty and none is lost', () => {
    const all = targets(3);
    const sizes = Array.from({ length: 8 }, (_, i) => selectShard(all, { index: i + 1, count: 8 }).length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('hashes unicode names and rejects a bad count', () => {
    expect(shardOf('サーバー', 3)).toBeGreaterThanOrEqual(1);
    expect(shardOf('サーバー', 3)).toBeLessThanOrEqual(3);
    expect(() => shardOf('x', 0)).toThrow(RangeError);
  });
});
