import { describe, expect, it } from 'vitest';
import { findKeyArguments } from '../../src/classify/keys.js';
import { classifyServer } from '../../src/classify/index.js';

const prop = (name: string, description: string, type: unknown = 'string') => ({
  type: 'object',
  properties: { [name]: { type, description } },
});
const graded = (name: string, description: string, type?: unknown) =>
  findKeyArguments(prop(name, description, type)).map((k) => `${k.confidence}:${k.reason}`);

describe('a key argument graded from its name and its own description together', () => {
  it.each([
    [
      'requestId',
      'Idempotency key bound to one Alexandria execution payload. Generated when omitted and returned with the result.',
    ],
    ['request_id', 'An optional, client-supplied idempotency key.'],
    ['nonce', 'Unique request id used as the deduplication id'],
    ['operationId', 'Optional: idempotency token for this call'],
    ['requestKey', 'Key used for deduplication of retried requests'],
  ])('weak name %s + "%s" is strong', (name, description) => {
    expect(graded(name, description)).toEqual(['strong:name and description']);
  });

  it.each([
    ['ref', 'Idempotency key: the same value on a retry returns the first result.'],
    ['token', 'A de-duplication token, kept for 24 hours.'],
    ['marker', 'Deduplication-Id for FIFO queues'],
    ['uuid', 'Used as the IdempotencyKey of the request'],
    ['x', 'Token to deduplicate retries'],
  ])('neutral name %s + "%s" is strong', (name, description) => {
    expect(graded(name, description)).toEqual(['strong:description']);
  });

  it.each([
    ['request_id', 'Use a request id for tracing', ['weak:name']],
    ['request_id', 'This call is not idempotent.', ['weak:name']],
    ['request_id', 'Not an idempotency key: only for tracing.', ['weak:name']],
    ['request_id', 'Unlike the idempotency key, this is only logged.', ['weak:name']],
    ['request_id', 'Idempotency key (not supported yet).', ['weak:name']],
    ['request_id', "Idempotency key; this server doesn't honour it", ['weak:name']],
    ['mode', 'This tool is idempotent.', ['weak:description']],
    ['mode', 'Calls are deduplicated for an hour', ['weak:description']],
    ['mode', 'Retries may be idempotent; see the idempotency docs', ['weak:description']],
    ['api_key', 'API key', []],
    ['api_key', 'Idempotency key for the request', ['weak:description']],
    ['session_id', 'Idempotency key of the session', ['weak:description']],
    ['note', 'The idempotent flag of the resource', ['weak:description']],
  ])('%s + "%s" is %j', (name, description, expected) => {
    expect(graded(name, description)).toEqual(expected);
  });

  it('a boolean named idempotent, or a boolean described as a key, is no key', () => {
    expect(graded('idempotent', 'Idempotency key', 'boolean')).toEqual([]);
    expect(graded('idempotent', 'Whether the call is idempotent', 'boolean')).toEqual([]);
    expect(
      findKeyArguments({
        type: 'object',
        properties: { dedupe: { enum: [true, false], description: 'Deduplication key' } },
      }),
    ).toEqual([]);
  });

  it('reads only the bounded head of a long description, in linear time', () => {
    const long = `${'word '.repeat(2_000)}idempotency key`;
    expect(graded('x', long)).toEqual([]);
    const hostile = 'a '.repeat(200_000) + 'idempotency';
    const started = performance.now();
    expect(graded('request_id', hostile)).toEqual(['weak:name']);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('makes the tool keyed (the verdict follows the grading)', () => {
    const raw = {
      name: 'firecrawl_scrape',
      annotations: { readOnlyHint: false, destructiveHint: false },
      inputSchema: prop('requestId', 'Idempotency key bound to one execution payload.'),
    };
    const [tool] = classifyServer({ name: 'firecrawl', rawTools: [raw] }).tools;
    expect(tool!.verdict).toBe('keyed');
    expect(tool!.findings.map((f) => f.rule)).not.toContain('weak-key-only');
  });
});
