// Strings: a fixed value for each known format, a pattern's own string, or "probe" fitted to the lengths.
import { fail, lengths, made, type At, type Made, type Schema } from './arguments-common.js';
import { compile, patternValue } from './arguments-pattern.js';

const PLAIN = 'probe';
const PAD = 'x';
/** Fixed so that a re-issue sends the same arguments; `.invalid` never resolves. */
const FORMATS = new Map<string, string>([
  ['uri', 'https://example.invalid/'],
  ['url', 'https://example.invalid/'],
  ['iri', 'https://example.invalid/'],
  ['uri-reference', 'https://example.invalid/'],
  ['iri-reference', 'https://example.invalid/'],
  ['uri-template', 'https://example.invalid/'],
  ['email', 'probe@example.invalid'],
  ['idn-email', 'probe@example.invalid'],
  ['date-time', '2026-01-01T00:00:00Z'],
  ['date', '2026-01-01'],
  ['time', '00:00:00Z'],
  ['duration', 'P1D'],
  ['uuid', '5f0c6b1e-8d2a-4c3b-9e7f-1a2b3c4d5e6f'],
  ['ipv4', '127.0.0.1'],
  ['ipv6', '::1'],
  ['hostname', 'example.invalid'],
  ['idn-hostname', 'example.invalid'],
  ['json-pointer', '/probe'],
  ['regex', PLAIN],
]);

function fit(value: string, min: number, max: number): string {
  if (value.length > max) return value.slice(0, max);
  return value.length < min ? value + PAD.repeat(min - value.length) : value;
}

export function makeString(schema: Schema, at: At): Made {
  const bounds = lengths(schema, at);
  if ('ok' in bounds) return bounds;
  const { min, max } = bounds;
  const format = typeof schema.format === 'string' ? FORMATS.get(schema.format) : undefined;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  if (format !== undefined) {
    const re = pattern === undefined ? undefined : compile(pattern);
    if (typeof re === 'string') return fail(at, re);
    const fits = format.length >= min && format.length <= max && (!re || re.test(format));
    if (fits) return made(format);
    if (!pattern) return fail(at, `format ${String(schema.format)} does not fit ${min}..${max} characters`);
  }
  if (pattern === undefined) return made(fit(PLAIN, min, max));
  const got = patternValue(pattern, min, max);
  return 'why' in got ? fail(at, got.why) : made(got.value);
}
