/**
 * `audit --tools report.json`: a report keeps each tool's key arguments, not its input schema.
 * The schema made from them (targets/report-tools.ts) must give the classifier back the same key
 * arguments (path, name, confidence, reason), so the verdicts of a report read back are its own.
 */
import { describe, expect, it } from 'vitest';
import { findKeyArguments } from '../../src/classify/keys.js';
import { pathSteps, schemaOf } from '../../src/targets/report-tools.js';

const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });

const SCHEMAS: Record<string, unknown> = {
  'a strong name at the top': { type: 'object', properties: { idempotency_key: str(), amount: { type: 'number' } } },
  'nested, in an array, under additionalProperties': {
    type: 'object',
    properties: {
      options: { type: 'object', properties: { clientToken: str() } },
      items: { type: 'array', items: { type: 'object', properties: { dedupe_key: str(), request_id: str() } } },
      meta: { type: 'object', additionalProperties: { type: 'object', properties: { nonce: str() } } },
    },
  },
  'odd property names': { type: 'object', properties: { 'x-idempotency-key': str(), 'Request Id': str() } },
  'keys by their descriptions, strong and weak': {
    type: 'object',
    properties: {
      ref: str('An optional, client-supplied idempotency key for this payment.'),
      requestId: str('Idempotency key bound to one payload.'),
      tag: str('Prevents duplicate orders when retried.'),
    },
  },
  'through $ref': {
    type: 'object',
    properties: { body: { $ref: '#/$defs/Body' } },
    $defs: { Body: { type: 'object', properties: { idempotencyKey: str() } } },
  },
};

describe('the input schema a report stands for', () => {
  for (const [what, schema] of Object.entries(SCHEMAS)) {
    it(`gives back the key arguments it was made from: ${what}`, () => {
      const keys = findKeyArguments(schema);
      expect(keys.length).toBeGreaterThan(0);
      expect(findKeyArguments(schemaOf(keys))).toEqual(keys);
    });
  }

  it('reads the paths keys.ts writes, and refuses what it does not write', () => {
    expect(pathSteps('$.a["b c"][*].*.d')).toEqual([
      { kind: 'property', name: 'a' },
      { kind: 'property', name: 'b c' },
      { kind: 'items' },
      { kind: 'any' },
      { kind: 'property', name: 'd' },
    ]);
    expect(pathSteps('$["a\\"]b"]')).toEqual([{ kind: 'property', name: 'a"]b' }]);
    for (const bad of ['a.b', '$.', '$["unterminated', '$..x', '$[0]', '$.a…'])
      expect(pathSteps(bad), bad).toBeUndefined();
  });

  it('puts a key whose path the report cut at the top, by its name', () => {
    const schema = schemaOf([
      { name: 'idempotency_key', path: '$.very.long.pa…', confidence: 'strong', reason: 'name' },
    ]);
    expect(findKeyArguments(schema)).toEqual([
      { name: 'idempotency_key', path: '$.idempotency_key', confidence: 'strong', reason: 'name' },
    ]);
  });

  it('does not walk a path longer or deeper than a scan writes (a hostile report): the key at the top', () => {
    const deep = `$${'[*]'.repeat(100_000)}.idempotency_key`;
    const nested = `$${'.a'.repeat(100)}.idempotency_key`;
    for (const path of [deep, nested]) {
      const schema = schemaOf([{ name: 'idempotency_key', path, confidence: 'strong', reason: 'name' }]);
      expect(findKeyArguments(schema)).toEqual([
        { name: 'idempotency_key', path: '$.idempotency_key', confidence: 'strong', reason: 'name' },
      ]);
    }
  });

  it('a property named __proto__ is a plain property', () => {
    const keys = [
      { name: '__proto__', path: '$.__proto__.idempotency_key', confidence: 'strong' as const, reason: 'name' },
    ];
    const schema = schemaOf(keys) as { properties: Record<string, unknown> };
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
    expect(Object.keys(schema.properties)).toEqual(['__proto__']);
    expect(findKeyArguments(schema)).toEqual([{ ...keys[0], name: 'idempotency_key' }]);
  });
});
