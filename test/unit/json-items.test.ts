/** topLevelArray locates the items of one member array by bytes; every piece it cuts parses to the item JSON.parse sees. */
import { describe, expect, it } from 'vitest';
import { topLevelArray } from '../../src/model/json-items.js';

const items = (text: string, key = 'servers') => {
  const bytes = Buffer.from(text, 'utf8');
  const found = topLevelArray(bytes, key);
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

  it('takes the last of a repeated key, as JSON.parse does; none when the member is no array or missing', () => {
    expect(items('{"servers":[1],"servers":[2,3]}')).toEqual([2, 3]);
    expect(items('{"servers":{"a":[1]}}')).toBeUndefined();
    expect(items('{"other":[1]}')).toBeUndefined();
    expect(items('{"servers":[]}')).toEqual([]);
  });

  it('gives byte offsets through text in other scripts', () => {
    const doc = { servers: [{ name: 'サーバー 🚀' }, { name: 'é' }] };
    expect(items(JSON.stringify(doc, null, 1))).toEqual(doc.servers);
  });
});
