import { describe, expect, it } from 'vitest';
import { makeArguments, type ArgumentsResult, type MadeArguments } from '../../src/probe/auto/arguments.js';

const SCRATCH = '/tmp/idemscan-scratch';
const FRESH = 'fresh-key-1';
const obj = (properties: Record<string, unknown>, required = Object.keys(properties), extra = {}) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
const run = (schema: unknown, keyPaths?: string[]): ArgumentsResult =>
  makeArguments(schema, { scratch: SCRATCH, fresh: FRESH, ...(keyPaths ? { keyPaths } : {}) });
function made(schema: unknown, keyPaths?: string[]): MadeArguments {
  const got = run(schema, keyPaths);
  if (!got.ok) throw new Error(got.reason);
  return got;
}
const reason = (schema: unknown): string => {
  const got = run(schema);
  if (got.ok) throw new Error(`made ${JSON.stringify(got.args)}`);
  return got.reason;
};
/** The server's pattern as `makeArguments` must meet it (a parameter: the lint judges literals, not this). */
const matches = (pattern: string, value: string): boolean => new RegExp(pattern).test(value);
const one = (schema: unknown): unknown => made(obj({ v: schema })).args.v;

describe('makeArguments: the arguments object', () => {
  it.each([undefined, null, 'x', {}, { type: 'object' }, { type: 'object', properties: {} }])(
    'an empty schema %j makes no arguments',
    (schema) => {
      expect(run(schema)).toEqual({ ok: true, args: {}, inputs: [], keys: [] });
    },
  );

  it('makes only required properties, at any depth', () => {
    const schema = obj({ a: { type: 'string' }, b: obj({ c: { type: 'integer' }, d: { type: 'string' } }, ['c']) }, [
      'b',
    ]);
    expect(made(schema).args).toEqual({ b: { c: 1 } });
  });

  it('makes a property named __proto__ an own property', () => {
    const args = made(obj({ ['__proto__']: { type: 'string' } }, ['__proto__'])).args;
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it('refuses a schema whose arguments are not an object', () => {
    expect(reason({ type: 'string' })).toBe('$: the arguments are not an object');
  });

  it('is deterministic', () => {
    const schema = obj({ path: { type: 'string' }, n: { type: 'number', minimum: 3 }, id: { format: 'uuid' } });
    expect(run(schema)).toEqual(run(schema));
  });
});

describe('makeArguments: values by keyword', () => {
  it('honours const, enum, default, examples in that order', () => {
    const base = { type: 'string' };
    expect(one({ ...base, const: 'c', enum: ['e'], default: 'd', examples: ['x'] })).toBe('c');
    expect(one({ ...base, enum: ['e', 'f'], default: 'd', examples: ['x'] })).toBe('e');
    expect(one({ ...base, default: 'd', examples: ['x'] })).toBe('d');
    expect(one({ ...base, examples: ['x', 'y'] })).toBe('x');
  });

  it('makes a value for each type', () => {
    expect(made(obj({ s: { type: 'string' }, b: { type: 'boolean' }, z: { type: 'null' }, u: {} })).args).toEqual({
      s: 'probe',
      b: false,
      z: null,
      u: 'probe',
    });
  });

  it('takes the first non-null type of a list', () => {
    expect(one({ type: ['null', 'integer'] })).toBe(1);
    expect(one({ type: ['null'] })).toBeNull();
  });

  it.each([
    ['uri', 'https://example.invalid/'],
    ['url', 'https://example.invalid/'],
    ['email', 'probe@example.invalid'],
    ['date-time', '2026-01-01T00:00:00Z'],
    ['date', '2026-01-01'],
    ['time', '00:00:00Z'],
    ['ipv4', '127.0.0.1'],
    ['ipv6', '::1'],
    ['hostname', 'example.invalid'],
  ])('format %s', (format, value) => {
    expect(one({ type: 'string', format })).toBe(value);
  });

  it('gives a uuid a fixed valid version 4', () => {
    expect(one({ type: 'string', format: 'uuid' })).toMatch(
      /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/,
    );
  });

  it('fits a string to minLength and maxLength', () => {
    expect(one({ type: 'string', minLength: 8 })).toHaveLength(8);
    expect(one({ type: 'string', maxLength: 2 })).toHaveLength(2);
    expect(reason(obj({ s: { type: 'string', minLength: 5, maxLength: 3 } }))).toBe(
      '$.s: minLength 5 above maxLength 3',
    );
  });
});

describe('makeArguments: patterns', () => {
  it.each([
    '^[a-z]+$',
    '^[A-Z0-9_]{3,5}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^\\w+@\\w+\\.com$',
    '^ab?c*d+$',
    '^[^\\s]+$',
    'x{2}y',
    '^(?:foo|bar)-\\d+$',
    '^(?<year>\\d{4})$',
    '^prefix_[a-f0-9]{8}$',
    '^(?=.*a).+$',
    '^[a-z]+(?!\\d)$',
    '^(a+)+$',
  ])('%s makes a string it matches', (pattern) => {
    const value = one({ type: 'string', pattern });
    expect(typeof value).toBe('string');
    expect(matches(pattern, value as string)).toBe(true);
  });

  it('meets minLength with a pattern', () => {
    const value = one({ type: 'string', pattern: '^[a-z]+$', minLength: 12 }) as string;
    expect(value).toHaveLength(12);
    expect(/^[a-z]+$/.test(value)).toBe(true);
  });

  it('refuses a pattern it cannot satisfy, a long one and an invalid one', () => {
    expect(reason(obj({ s: { type: 'string', pattern: '^\\u00e9{3}$' } }))).toBe(
      '$.s: pattern "^\\\\u00e9{3}$" cannot be satisfied',
    );
    expect(reason(obj({ s: { type: 'string', pattern: `^${'a'.repeat(300)}$` } }))).toBe(
      '$.s: pattern longer than 200 characters',
    );
    expect(reason(obj({ s: { type: 'string', pattern: '^[a-' } }))).toMatch(
      /^\$\.s: pattern .* is not a regular expression$/,
    );
  });

  it('answers (a+)+$ quickly, with a string it matches', () => {
    const hostile = '(a+)+$';
    const value = one({ type: 'string', pattern: hostile, minLength: 1_000 }) as string;
    expect(value).toHaveLength(1_000);
    expect(matches(hostile, value)).toBe(true);
  });
});

describe('makeArguments: numbers', () => {
  const bounded = (schema: Record<string, unknown>, ok: (n: number) => boolean) => {
    const n = one(schema) as number;
    expect(ok(n), `${n} for ${JSON.stringify(schema)}`).toBe(true);
    return n;
  };

  it('prefers 1, else the lowest allowed', () => {
    expect(one({ type: 'integer' })).toBe(1);
    expect(one({ type: 'integer', minimum: 10, maximum: 20 })).toBe(10);
    expect(one({ type: 'number', minimum: -5, maximum: 0 })).toBe(-5);
    expect(one({ type: 'integer', maximum: -3 })).toBe(-3);
  });

  it('honours exclusive bounds in both drafts', () => {
    expect(bounded({ type: 'integer', minimum: 1, exclusiveMinimum: true }, (n) => n > 1)).toBe(2);
    expect(bounded({ type: 'integer', exclusiveMinimum: 1 }, (n) => n > 1)).toBe(2);
    bounded({ type: 'number', exclusiveMinimum: 1, exclusiveMaximum: 1.5 }, (n) => n > 1 && n < 1.5);
    bounded({ type: 'integer', maximum: 1, exclusiveMaximum: true }, (n) => n < 1);
    bounded({ type: 'number', exclusiveMaximum: 0.5 }, (n) => n < 0.5);
  });

  it('honours multipleOf', () => {
    expect(bounded({ type: 'integer', multipleOf: 5 }, (n) => n % 5 === 0)).toBe(5);
    bounded({ type: 'integer', minimum: 12, multipleOf: 5 }, (n) => n >= 12 && n % 5 === 0);
    bounded({ type: 'integer', multipleOf: 0.5, minimum: 1.2 }, (n) => Number.isInteger(n) && n >= 1.2);
    bounded({ type: 'number', multipleOf: 0.25, minimum: 2.1, maximum: 3 }, (n) => n >= 2.1 && n <= 3);
  });

  it('refuses bounds that allow nothing, naming the property', () => {
    expect(reason(obj({ count: { type: 'integer', minimum: 10, maximum: 5 } }))).toBe(
      '$.count: minimum 10 above maximum 5',
    );
    expect(reason(obj({ n: { type: 'integer', minimum: 1.2, maximum: 1.8 } }))).toBe(
      '$.n: no integer within the bounds',
    );
  });
});

describe('makeArguments: arrays and combinators', () => {
  it('gives an array minItems items, else none', () => {
    expect(
      made(obj({ a: { type: 'array', items: { type: 'integer' }, minItems: 2 }, b: { type: 'array' } })).args,
    ).toEqual({ a: [1, 1], b: [] });
    expect(
      made(obj({ t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], minItems: 2 } })).args,
    ).toEqual({ t: ['probe', false] });
  });

  it('makes required properties of objects inside arrays', () => {
    const schema = obj({ rows: { type: 'array', minItems: 1, items: obj({ id: { type: 'integer' } }) } });
    expect(made(schema).args).toEqual({ rows: [{ id: 1 }] });
  });

  it('refuses uniqueItems it cannot meet and maxItems below minItems', () => {
    expect(reason(obj({ a: { type: 'array', minItems: 2, uniqueItems: true, items: { type: 'boolean' } } }))).toBe(
      '$.a: uniqueItems with 2 items alike',
    );
    expect(reason(obj({ a: { type: 'array', minItems: 3, maxItems: 1 } }))).toBe('$.a: minItems 3 above maxItems 1');
  });

  it('takes the first anyOf / oneOf branch that can be made', () => {
    expect(one({ anyOf: [{ type: 'integer', minimum: 5, maximum: 1 }, { type: 'string' }] })).toBe('probe');
    expect(one({ oneOf: [{ type: 'boolean' }, { type: 'string' }] })).toBe(false);
  });

  it('merges allOf object branches', () => {
    const schema = {
      allOf: [obj({ a: { type: 'integer' } }), { properties: { b: { type: 'string' } }, required: ['b'] }],
    };
    expect(made(schema).args).toEqual({ a: 1, b: 'probe' });
  });

  it('follows local $refs in $defs and definitions', () => {
    const schema = {
      ...obj({ a: { $ref: '#/$defs/A' }, b: { $ref: '#/definitions/B' } }),
      $defs: { A: { type: 'integer', minimum: 3 } },
      definitions: { B: obj({ c: { type: 'boolean' } }) },
    };
    expect(made(schema).args).toEqual({ a: 3, b: { c: false } });
  });

  it('refuses a $ref that is not local or points nowhere', () => {
    expect(reason(obj({ a: { $ref: 'https://example.invalid/s.json' } }))).toMatch(/^\$\.a: \$ref .* not a local/);
    expect(reason(obj({ a: { $ref: '#/$defs/missing' } }))).toMatch(/^\$\.a: \$ref .* not a local/);
  });
});

describe('makeArguments: paths', () => {
  it('points path-like names into scratch and creates the inputs', () => {
    const got = made(
      obj({
        source: { type: 'string' },
        destination: { type: 'string' },
        filePath: { type: 'string', description: 'The file to edit' },
        out_dir: { type: 'string' },
        input_folder: { type: 'string' },
        cwd: { type: 'string' },
      }),
    );
    expect(got.args).toEqual({
      source: `${SCRATCH}/probe-file-1.txt`,
      destination: `${SCRATCH}/probe-file-2.txt`,
      filePath: `${SCRATCH}/probe-file-3.txt`,
      out_dir: `${SCRATCH}/probe-dir-1`,
      input_folder: `${SCRATCH}/probe-dir-2`,
      cwd: `${SCRATCH}/probe-dir-3`,
    });
    expect(got.inputs).toEqual([
      { path: 'probe-file-1.txt', content: 'idemscan probe input\n' },
      { path: 'probe-file-3.txt', content: 'idemscan probe input\n' },
      { path: 'probe-dir-2/', content: '' },
      { path: 'probe-dir-3/', content: '' },
    ]);
  });

  it('knows a path by its description, and ignores a default outside scratch', () => {
    const got = made(
      obj({ where: { type: 'string', description: 'Absolute path of the file', default: '/etc/passwd' } }),
    );
    expect(got.args).toEqual({ where: `${SCRATCH}/probe-file-1.txt` });
    expect(got.inputs).toEqual([]);
  });

  it('leaves names that are not file paths alone', () => {
    expect(
      made(obj({ url_path: { type: 'string' }, source: { type: 'string', description: 'web or news' } })).args,
    ).toEqual({ url_path: 'probe', source: 'probe' });
  });

  it('makes a file URI for a uri that names a file, an https one otherwise', () => {
    expect(
      made(obj({ file: { type: 'string', format: 'uri' }, site: { type: 'string', format: 'uri' } })).args,
    ).toEqual({
      file: `file://${SCRATCH}/probe-file-1.txt`,
      site: 'https://example.invalid/',
    });
  });

  it('refuses a path the schema does not allow, and trims the slash of scratch', () => {
    expect(reason(obj({ path: { type: 'string', maxLength: 10 } }))).toMatch(
      /^\$\.path: a scratch path of \d+ characters/,
    );
    expect(reason(obj({ path: { type: 'string', pattern: '^s3://' } }))).toBe(
      '$.path: pattern refuses a path in the scratch directory',
    );
    const got = makeArguments(obj({ file: { type: 'string' } }), { scratch: `${SCRATCH}/`, fresh: FRESH });
    expect(got.ok && got.args).toEqual({ file: `${SCRATCH}/probe-file-1.txt` });
  });

  it('gives the items of an array of paths their own paths', () => {
    expect(made(obj({ paths: { type: 'array', items: { type: 'string' }, minItems: 2 } })).args).toEqual({
      paths: [`${SCRATCH}/probe-file-1.txt`, `${SCRATCH}/probe-file-2.txt`],
    });
  });
});

describe('makeArguments: keys', () => {
  it('gives listed key paths the fresh value, even when optional or absent from the schema', () => {
    const got = made(obj({ op: obj({ token: { type: 'string' } }, []), n: { type: 'integer' } }, ['op', 'n']), [
      '$.op.token',
      '$.extra_key',
    ]);
    expect(got.args).toEqual({ op: { token: FRESH }, n: 1, extra_key: FRESH });
    expect(got.keys).toEqual(['$.op.token', '$.extra_key']);
  });

  it.each([
    'idempotency_key',
    'idempotencyKey',
    'client_token',
    'clientToken',
    'request_id',
    'dedup_key',
    'dedupe_key',
  ])('%s is a key even when not listed or required', (name) => {
    const got = made(obj({ [name]: { type: 'string', format: 'uuid' } }, []));
    expect(got.args).toEqual({ [name]: FRESH });
    expect(got.keys).toEqual([`$.${name}`]);
  });

  it('matches a wildcard key path inside array items', () => {
    const schema = obj({ items: { type: 'array', minItems: 1, items: obj({ k: { type: 'string' } }) } });
    const got = made(schema, ['$.items[*].k']);
    expect(got.args).toEqual({ items: [{ k: FRESH }] });
    expect(got.keys).toEqual(['$.items[0].k']);
  });
});

describe('makeArguments: hostile schemas', () => {
  it('refuses a $ref cycle', () => {
    expect(
      reason({ ...obj({ a: { $ref: '#/$defs/A' } }), $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } }),
    ).toMatch(/^\$\.a: \$ref cycle/);
    expect(
      reason({ ...obj({ a: { $ref: '#/$defs/N' } }), $defs: { N: obj({ next: { $ref: '#/$defs/N' } }) } }),
    ).toMatch(/nested deeper than 16 levels$/);
  });

  it('stops at 200 values among 10,000 required properties', () => {
    const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(reason(obj(properties))).toBe('$.p199: more than 200 values to make');
  });

  it('stops at depth 16 of a schema 1,000 levels deep', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1_000; i++) schema = obj({ a: schema });
    expect(reason(schema)).toBe(`$${'.a'.repeat(17)}: nested deeper than 16 levels`);
  });

  it('refuses a huge minLength and minItems without making them', () => {
    expect(reason(obj({ s: { type: 'string', minLength: 1e9 } }))).toBe('$.s: minLength 1000000000 above 1000');
    expect(reason(obj({ a: { type: 'array', minItems: 1e9 } }))).toBe('$.a: minItems 1000000000 above 16');
  });

  it('bounds anyOf and allOf chains', () => {
    let any: Record<string, unknown> = { type: 'integer', minimum: 2, maximum: 1 };
    for (let i = 0; i < 1_000; i++) any = { anyOf: [any, any] };
    expect(run(obj({ a: any })).ok).toBe(false);
    let all: Record<string, unknown> = { type: 'integer' };
    for (let i = 0; i < 1_000; i++) all = { allOf: [all] };
    expect(reason(obj({ a: all }))).toMatch(/^\$\.a: more than 64 \$ref or allOf hops$/);
  });
});

describe('a pattern that backtracks', () => {
  // Without the fallback this test never ends (vitest's timeout fails it).
  it('cannot hold the event loop: V8 falls back to its linear engine', () => {
    const made = makeArguments(
      {
        type: 'object',
        properties: { file_path: { type: 'string', pattern: '^([a-z/._-]|[a-z])*!$' } },
        required: ['file_path'],
      },
      { scratch: '/tmp/idemscan-auto-abcdefgh/work', fresh: 'k' },
    );
    expect(made.ok).toBe(false);
  });
});
