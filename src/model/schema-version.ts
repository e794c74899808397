/**
 * The report's schemaVersion, apart from the zod schema (schema.ts) so that `scan()` can stamp it
 * without building every schema at start-up.
 */
export const SCHEMA_VERSION = '1';
