/** The one bounded parser of JSON from files and the network (model/bounded-input.ts) and the cut of kept server values (model/bounds.ts); the reads are test/unit/io-read.test.ts. */
import { describe, expect, it } from 'vitest';
import { jsonExtent, MAX_JSON_DEPTH, parseJson } from '../../src/model/bounded-input.js';
import { boundedObject, serverInfoOf } from '../../src/model/bounds.js';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const bounds = { maxBytes: 10_000_000, maxDepth: MAX_JSON_DEPTH };

describe('parseJson', () => {
  it('parses up to maxDepth levels and refuses one more, naming where', () => {
    expect(parseJson(arrays(64), bounds)).toEqual({ value: JSON.parse(arrays(64)) });
    expect(parseJson(`{"a":\n ${arrays(64)}}`, bounds)).toEqual({
      error: 'nested deeper than 64 levels (line 2, column 65)',
      why: 'depth',
    });
  });

  it('200,000 levels (400 KB) is an error as data, found before anything is built', () => {
    expect(parseJson(arrays(200_000), bounds)).toMatchObject({ why: 'depth' });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: `\\"${'['.repeat(500)}`, t: ['{{{"'] });
    expect(parseJson(text, bounds)).toEqual({ value: JSON.parse(text) });
  });

  it('refuses more bytes than maxBytes (UTF-8), and says what is not JSON', () => {
    expect(parseJson('"ééé"', { maxBytes: 8, maxDepth: 1 })).toEqual({ value: 'ééé' });
    expect(parseJson('"éééé"', { maxBytes: 8, maxDepth: 1 })).toEqual({
      error: '10 bytes, above the bound of 8',
      why: 'size',
    });
    expect(parseJson('{"a":', bounds)).toMatchObject({ why: 'syntax' });
  });

  it('keeps "__proto__" an own key, not a prototype', () => {
    const got = parseJson('{"__proto__":{"trusted":true}}', bounds) as { value: Record<string, unknown> };
    expect(Object.hasOwn(got.value, '__proto__')).toBe(true);
    expect((got.value as { trusted?: unknown }).trusted).toBeUndefined();
  });
});

describe('jsonExtent', () => {
  it("is JSON.stringify's length for values parsed from JSON", () => {
    for (const v of [
      null,
      0,
      -1.5e-7,
      'a "quoted" \\ \n line \u0001 and é 😀',
      [],
      {},
      [1, [2, [3, {}]], 'x'],
      { a: { b: [true, false, null] }, 'k"ey': '', '': 0 },
      JSON.parse(`{"__proto__":[1,2],"x":${arrays(20)}}`),
    ])
      expect(jsonExtent(v, { maxDepth: 64 })).toEqual({ length: JSON.stringify(v).length });
  });

  it('leaves out what JSON leaves out', () => {
    const v = { a: undefined, b: () => 1, c: [undefined, 1] };
    expect(jsonExtent(v, { maxDepth: 64 })).toEqual({ length: JSON.stringify(v).length });
  });

  it('is too deep one level past maxDepth, and walks 200,000 levels without recursion', () => {
    expect(jsonExtent(JSON.parse(arrays(64)), { maxDepth: 64 })).toEqual({ length: 128 });
    expect(jsonExtent(JSON.parse(arrays(65)), { maxDepth: 64 })).toEqual({ tooDeep: true });
    expect(jsonExtent(JSON.parse(arrays(200_000)), { maxDepth: 64 })).toEqual({ tooDeep: true });
    expect(jsonExtent(JSON.parse(arrays(200_000)), { maxDepth: Infinity })).toEqual({ length: 400_000 });
  });

  it('stops past maxLength, so a cyclic value ends too', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic, 'x'.repeat(100));
    const got = jsonExtent(cyclic, { maxDepth: Infinity, maxLength: 1_000 });
    expect('length' in got && got.length > 1_000).toBe(true);
  });
});

describe('boundedObject and serverInfoOf', () => {
  it('keep a value MAX_JSON_DEPTH deep, and only the scalar fields of one deeper', () => {
    const at = { readOnlyHint: true, nested: JSON.parse(arrays(MAX_JSON_DEPTH - 1)) as unknown };
    expect(boundedObject(at, 4_000)).toBe(at);
    const past = { readOnlyHint: true, nested: JSON.parse(arrays(MAX_JSON_DEPTH)) as unknown };
    expect(boundedObject(past, 4_000)).toEqual({ _truncated: true, readOnlyHint: true });
    const far = { readOnlyHint: true, nested: JSON.parse(arrays(200_000)) as unknown };
    expect(boundedObject(far, 4_000)).toEqual({ _truncated: true, readOnlyHint: true });
  });

  it('a serverInfo name nested 200,000 deep is a word, not a stack overflow', () => {
    expect(serverInfoOf({ name: JSON.parse(arrays(200_000)), version: [1] })).toEqual({
      _truncated: true,
      name: '(nested too deep)',
      version: '[1]',
    });
  });
});
