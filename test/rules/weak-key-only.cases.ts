import { hints, ruleCases, schema, type InvalidCase, type RuleCase } from '../helpers/rule-tester.js';

const annotations = hints(false, false, false);
const placeOrder = (description: string) => ({ tools: [{ name: 'place_order', annotations, description }] });

/** Descriptions that promise deduplication or a key (also the word test of describesDeduplication). */
export const PROMISING = [
  'Retried requests are deduplicated.',
  'Pass the same Idempotency-Key header value to retry safely.',
  'Duplicate orders are rejected.',
  'Prevents duplicate charges when a request is retried.',
  'Not cached: calls with one request id are de-duplicated for 24 hours.',
];
const promises = PROMISING.map((d): InvalidCase => ({
  name: `promises: ${d}`,
  input: placeOrder(d),
  errors: [{ evidence: 'description' }],
}));

/** Negations, or warnings about duplicates (also the word test of describesDeduplication). */
export const NOT_PROMISING = [
  'This tool is not idempotent.',
  "Charges the card. This call isn't idempotent.",
  'A non-idempotent write.',
  'Non idempotent: every call creates a new order.',
  'Duplicate requests create duplicate orders.',
  'Duplicate submissions are not rejected.',
  'Requests are never deduplicated.',
  'No deduplication is done: retry with care.',
  'The operation is not guaranteed to be idempotent.',
  "Doesn't dedupe retries.",
];
const negations = NOT_PROMISING.map((d): RuleCase => ({
  name: `does not promise: ${d}`,
  input: placeOrder(d),
  raises: [],
}));

const calledTwice = 'Idempotent: calling it twice has the same effect.';

export default ruleCases({
  valid: [
    ...negations,
    {
      name: '"NOT idempotent"',
      input: { tools: [{ name: 'bet', annotations, description: 'This tool is NOT idempotent.' }] },
      raises: [],
    },
    {
      name: 'a strong key beside the weak one',
      input: { tools: [{ name: 'order', annotations, inputSchema: schema('request_id', 'idempotency_key') }] },
      raises: [],
    },
    {
      name: 'a read',
      input: { tools: [{ name: 'lookup', annotations: { readOnlyHint: true }, inputSchema: schema('request_id') }] },
      raises: [],
    },
    {
      name: 'a description that only calls idempotent a tool that says so in its idempotentHint',
      input: { tools: [{ name: 'set_config', annotations: hints(false, true, true), description: calledTwice }] },
    },
  ],
  invalid: [
    {
      name: 'a weak key name, with its path',
      input: { tools: [{ name: 'submit_order', annotations, inputSchema: schema('item', 'request_id') }] },
      errors: [{ evidence: '$.request_id', severity: 'warning', message: 'argument $.request_id may be a key' }],
    },
    {
      name: 'a nonce',
      input: { tools: [{ name: 'mint', annotations, inputSchema: schema('nonce') }] },
      errors: [{ evidence: '$.nonce' }],
    },
    {
      name: 'a description that promises idempotency',
      input: { tools: [{ name: 'bet', annotations, description: 'Retries with the same bet are idempotent.' }] },
      errors: [{ evidence: 'description' }],
    },
    ...promises,
    {
      name: 'a description that promises deduplication, beside idempotentHint',
      input: {
        tools: [
          {
            name: 'set_config',
            annotations: hints(false, true, true),
            description: 'Idempotent: retries are deduplicated.',
          },
        ],
      },
      errors: [{ evidence: 'description' }],
    },
    {
      name: 'a description that calls idempotent a tool whose hint does not',
      input: { tools: [{ name: 'set_config', annotations, description: calledTwice }] },
      errors: [{ evidence: 'description' }],
    },
  ],
});
