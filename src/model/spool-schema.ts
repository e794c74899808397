// The spool (docs/SCALING.md) is untrusted input like a saved report: every line is checked.
import { z } from 'zod';
import { ServerReport } from './schema.js';

export const SPOOL_VERSION = 2;

/** A resumed scan must match these; timeouts decide only which servers fail, so they may differ. */
export const SpoolRun = z.object({
  tool: z.string().max(50),
  trust: z.array(z.string().max(1_000)).max(1_000),
  sandbox: z.boolean(),
  maxPages: z.number(),
  profiles: z.array(z.string().max(1_000)).max(100),
  /** `--writable`'s real paths, sorted: what a sandboxed server could change. */
  writable: z.array(z.string().max(4_096)).max(1_000).optional(),
});
export type SpoolRun = z.infer<typeof SpoolRun>;

/** A spool whose writer still runs is left alone (spool/spool-writer.ts). */
export const SpoolWriter = z.object({
  pid: z.number().int().positive(),
  host: z.string().max(300),
  /** Boot id and start ticks, so a reused pid is not taken for the writer. */
  started: z.string().max(80).optional(),
});
export type SpoolWriter = z.infer<typeof SpoolWriter>;

export const SpoolHeader = z.object({
  idemscanSpool: z.literal(SPOOL_VERSION),
  /** Every line's MAC covers it: a line of another spool is refused. */
  spool: z.string().regex(/^[0-9a-f]{32}$/),
  schemaVersion: z.string().max(20),
  /** A resumed scan's report keeps it. */
  startedAt: z.iso.datetime(),
  run: SpoolRun,
  writer: SpoolWriter.optional(),
});
export type SpoolHeader = z.infer<typeof SpoolHeader>;
export type SpoolStart = Omit<SpoolHeader, 'idemscanSpool' | 'spool'>;

export const SpoolLine = z.object({
  /** An HMAC of the launch recipe: a changed target is scanned again. */
  key: z.string().max(100),
  server: ServerReport,
});
export type SpoolLine = z.infer<typeof SpoolLine>;
