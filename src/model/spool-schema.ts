/**
 * The spool file of a scan (`output/scan.spool.ndjson`, docs/SCALING.md): a header line, then one
 * line per finished server, in the order they finished. It is what an interrupted scan leaves and
 * `scan --resume` reads back, so it is untrusted input like a saved report: every line is checked
 * against these schemas, the servers against the report's own.
 */
import { z } from 'zod';
import { ServerReport } from './schema.js';

export const SPOOL_VERSION = 1;

export const SpoolHeader = z.object({
  idemscanSpool: z.literal(SPOOL_VERSION),
  schemaVersion: z.string().max(20),
  /** When the scan first started: a resumed scan's report keeps it. */
  startedAt: z.iso.datetime(),
});
export type SpoolHeader = z.infer<typeof SpoolHeader>;

export const SpoolLine = z.object({
  /** Which target this server is (a digest of its redacted launch recipe): a changed target is scanned again. */
  key: z.string().max(100),
  server: ServerReport,
});
export type SpoolLine = z.infer<typeof SpoolLine>;
