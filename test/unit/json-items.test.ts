/** topLevelArray locates the items of one member array by bytes; every piece it cuts parses to the item JSON.parse sees, or to nothing. */
import { describe, expect, it } from 'vitest';
import { topLevelArray } from '../../src/model/json-items.js';

const items = (text: string, key = 'servers') => {
  const bytes = Buffer.from(text, 'utf8');
  const found = topLevelArray(bytes, key);
  if (found && 'duplicate' in found) throw new Error(`duplicate ${found.duplicate}`);
  return found && found.items.map(([s, e]) => JSON.parse(bytes.toString('utf8', s, e)) as unknown);
};

describe('topLevelArray', () => {
  it('cuts each item of the member array, whatever nests inside it', () => {
    const doc = {
      lockVersion: '1',
      servers: [{ name: 'a', tools: [{ name: 'x', hints: { a: [1, { b: '}]' }] } }] }, 'plain', 3, null, [[]], {}],
      after: [9],
    };
    expect(items(JSON.stringify(doc))).toEqual(doc.servers);
    expect(items(JSON.stringify(doc, null, 2))).toEqual(doc.servers);
  });

  it('is not fooled by the key inside strings, as a value, or nested deeper', () => {
    const text = '{"note":"\\"servers\\": [1]","x":"servers","inner":{"servers":[2]},"servers":[{"s":"a\\\\"},4]}';
    expect(items(text)).toEqual((JSON.parse(text) as { servers: unknown[] }).servers);
  });

  it('finds the key however it is spelled, decoded as JSON.parse decodes it', () => {
    expect(items('{"serv\\u0065rs":[1,2]}')).toEqual([1, 2]);
    expect(items('{"\\u0073ervers" :\n [3]}')).toEqual([3]);
    expect(items('{"servers\\u0000":[1]}')).toBeUndefined();
  });

  it('gives the duplicate when the top-level object holds a key twice, however spelled: JSON readers differ on which counts', () => {
    const dup = (text: string) => topLevelArray(Buffer.from(text, 'utf8'), 'servers');
    expect(dup('{"servers":[1],"servers":[2,3]}')).toEqual({ duplicate: 'servers' });
    expect(dup('{"servers":[1],"serv\\u0065rs":[2,3]}')).toEqual({ duplicate: 'servers' });
    expect(dup('{"serv\\u0065rs":[1],"servers":{}}')).toEqual({ duplicate: 'servers' });
    expect(dup('{"lockVersion":"1","servers":[1],"lockV\\u0065rsion":"2"}')).toEqual({ duplicate: 'lockVersion' });
    // Nested objects and values may repeat what they like: the caller parses them as JSON does.
    expect(dup('{"a":{"servers":1,"servers":2},"b":"servers","servers":[{"x":1,"x":2}]}')).toMatchObject({
      items: [[expect.any(Number), expect.any(Number)]],
    });
  });

  it('cuts a missing item as an empty piece, which no parse accepts, as JSON.parse refuses the array', () => {
    const pieces = (text: string) => {
      const found = topLevelArray(Buffer.from(text, 'utf8'), 'servers');
      return found && 'items' in found ? found.items.map(([s, e]) => text.slice(s, e)) : found;
    };
    expect(pieces('{"servers":[1,,2]}')).toEqual(['1', '', '2']);
    expect(pieces('{"servers":[ , 1]}')).toEqual(['', '1']);
    expect(pieces('{"servers":[1 , ]}')).toEqual(['1', '']);
    expect(pieces('{"servers":[ ]}')).toEqual([]);
  });

  it('none when the member is no array or missing', () => {
    expect(items('{"servers":{"a":[1]}}')).toBeUndefined();
    expect(items('{"other":[1]}')).toBeUndefined();
    expect(items('{"servers":[]}')).toEqual([]);
  });

  it('gives byte offsets through text in other scripts', () => {
    const doc = { servers: [{ name: 'サーバー 🚀' }, { name: 'é' }] };
    expect(items(JSON.stringify(doc, null, 1))).toEqual(doc.servers);
  });
});
