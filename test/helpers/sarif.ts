/** A validator for the SARIF 2.1.0 JSON schema, as @microsoft/jest-sarif ships it (draft-04). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with `module.exports = plugin`: the default import is the plugin at run
// time, while its typings describe `exports.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/** Ajv 8 reads the draft-04 schema once its root `id` is `$id`: it uses none of draft-04's other differences. */
export function sarifValidator() {
  const require = createRequire(import.meta.url);
  const file = path.join(
    path.dirname(require.resolve('@microsoft/jest-sarif/package.json')),
    'lib/schemas/sarif-2.1.0-rtm.5.json',
  );
  const { id, $schema: _draft, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  // unicodeRegExp: false because the schema's `language` pattern has a stray `]` that only a
  // non-unicode RegExp accepts (as JSON Schema validators of its time did).
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile({ ...schema, $id: String(id) });
}
