/** Apart from schema.ts so `scan()` can stamp it without building every schema at start-up. */
export const SCHEMA_VERSION = '1';
