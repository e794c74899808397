import { describe, expect, it } from 'vitest';
import { findKeyArguments, keyConfidence } from '../../src/classify/keys.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('keyConfidence', () => {
  it.each([
    'idempotency_key',
    'idempotencyKey',
    'Idempotency-Key',
    'IDEMPOTENCY_KEY',
    'idempotency-token',
    'idempotencyId',
    'client_token',
    'ClientToken',
    'clientRequestToken',
    'client_request_token',
    'dedupe_key',
    'deduplication_id',
    'MessageDeduplicationId',
    'x-idempotency-key',
    'idempotence_key',
  ])('%s is strong', (name) => {
    expect(keyConfidence(name)).toBe('strong');
  });
  it.each(['request_id', 'requestKey', 'operation_id', 'client_reference_id', 'nonce', 'X-Request-Id'])(
    '%s is weak',
    (name) => {
      expect(keyConfidence(name)).toBe('weak');
    },
  );
  it.each([
    'api_key',
    'key_id',
    'apiKey',
    'token',
    'access_token',
    'idempotent',
    'id',
    'key',
    'session_id',
    'user_request',
    'idempotency_key_ttl',
    'idempotencyKeyHash',
    'idempotency_key_expires_at',
    'dedupe_key_prefix',
    'client_token_expiry',
  ])('%s is not a key', (name) => expect(keyConfidence(name)).toBeUndefined());
});

describe('findKeyArguments', () => {
  it('finds a top-level key with its path', () => {
    expect(findKeyArguments(obj({ amount: { type: 'number' }, idempotency_key: { type: 'string' } }))).toEqual([
      { name: 'idempotency_key', path: '$.idempotency_key', confidence: 'strong', reason: 'name' },
    ]);
  });

  it('finds the keys of the vertical protocols: AdCP v3 (a patterned idempotency_key) and ACP (meta.idempotency_key)', () => {
    // AdCP v3 (adcontextprotocol/adcp #2315): a required top-level key with a pattern, on mutating tasks.
    const adcp = obj(
      {
        buyer_ref: { type: 'string' },
        idempotency_key: {
          type: 'string',
          pattern: '^[A-Za-z0-9_.:-]{16,255}$',
          description: 'Client-generated key; a repeat with the same key returns the original response.',
        },
        packages: { type: 'array', items: obj({ product_id: { type: 'string' } }) },
      },
      { required: ['buyer_ref', 'idempotency_key', 'packages'] },
    );
    expect(findKeyArguments(adcp)).toEqual([
      { name: 'idempotency_key', path: '$.idempotency_key', confidence: 'strong', reason: 'name' },
    ]);
    // The Agentic Commerce Protocol nests it under meta.
    const acp = obj({
      items: { type: 'array', items: obj({ id: { type: 'string' }, quantity: { type: 'integer' } }) },
      meta: obj({ idempotency_key: { type: 'string' }, request_id: { type: 'string' } }),
    });
    expect(findKeyArguments(acp).filter((k) => k.confidence === 'strong')).toEqual([
      { name: 'idempotency_key', path: '$.meta.idempotency_key', confidence: 'strong', reason: 'name' },
    ]);
  });

  it('finds keys in nested objects, $ref/$defs, anyOf branches and array items', () => {
    const schema = obj(
      {
        options: obj({ clientToken: { type: 'string' } }),
        payment: { $ref: '#/$defs/Payment' },
        target: { anyOf: [obj({ dedupe_key: { type: 'string' } }), { type: 'null' }] },
        items: { type: 'array', items: obj({ 'Idempotency-Key': { type: 'string' } }) },
      },
      { $defs: { Payment: obj({ idempotencyKey: { type: 'string' } }) } },
    );
    const paths = findKeyArguments(schema)
      .map((k) => `${k.path}:${k.confidence}`)
      .sort();
    expect(paths).toEqual([
      '$.items[*]["Idempotency-Key"]:strong',
      '$.options.clientToken:strong',
      '$.payment.idempotencyKey:strong',
      '$.target.dedupe_key:strong',
    ]);
  });

  it('does not take a boolean named idempotent, an object, or api_key for a key', () => {
    const schema = obj({
      idempotent: { type: 'boolean' },
      api_key: { type: 'string' },
      idempotency_key: { type: 'boolean' },
      key_id: { type: 'string' },
    });
    expect(findKeyArguments(schema)).toEqual([]);
  });

  it('does not take booleans written as enum, const, allOf or behind $ref for keys', () => {
    const schema = obj(
      {
        a: { properties: {}, type: 'object' },
        idempotency_key: { enum: [true, false] },
        client_token: { const: true },
        dedupe_key: { allOf: [{ type: 'boolean' }] },
        idempotencyKey: { anyOf: [{ $ref: '#/$defs/Bool' }, { type: 'null' }] },
        deduplication_id: { type: ['string', 'null'] },
      },
      { $defs: { Bool: { type: 'boolean' } } },
    );
    expect(findKeyArguments(schema).map((k) => k.path)).toEqual(['$.deduplication_id']);
  });

  it('looks into patternProperties and dependentSchemas', () => {
    const schema = obj(
      {},
      {
        patternProperties: { '^x': obj({ idempotency_key: { type: 'string' } }) },
        dependentSchemas: { a: obj({ client_token: { type: 'string' } }) },
      },
    );
    expect(
      findKeyArguments(schema)
        .map((k) => k.path)
        .sort(),
    ).toEqual(['$.*.idempotency_key', '$.client_token']);
  });

  it('survives a $ref with a stray percent sign', () => {
    expect(
      findKeyArguments(obj({ a: { $ref: '#/$defs/100%' }, idempotency_key: { type: 'string' } })).map((k) => k.path),
    ).toEqual(['$.idempotency_key']);
  });

  it('reports weak evidence: weak names and descriptions that mention idempotency', () => {
    const schema = obj({
      request_id: { type: 'string' },
      token: { type: 'string', description: 'Used to deduplicate retried requests' },
    });
    expect(findKeyArguments(schema).map((k) => [k.path, k.confidence, k.reason])).toEqual([
      ['$.request_id', 'weak', 'name'],
      ['$.token', 'weak', 'description'],
    ]);
  });

  it('a description that says the argument is not idempotent is no key evidence', () => {
    const schema = obj({
      mode: { type: 'string', description: 'This call is not idempotent.' },
      ref: { type: 'string', description: 'Non-idempotent operation id' },
    });
    expect(findKeyArguments(schema)).toEqual([]);
  });

  it('survives cyclic $refs and hostile depth', () => {
    const cyclic = obj({ next: { $ref: '#' }, idempotency_key: { type: 'string' } });
    expect(findKeyArguments(cyclic).map((k) => k.path)).toContain('$.idempotency_key');
    let deep: Record<string, unknown> = obj({ idempotency_key: { type: 'string' } });
    for (let i = 0; i < 200; i++) deep = obj({ a: deep });
    expect(() => findKeyArguments(deep)).not.toThrow();
    expect(findKeyArguments('not a schema')).toEqual([]);
  });
});
