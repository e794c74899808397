/**
 * The spool file of a scan (`output/scan.spool.ndjson`, docs/SCALING.md): a header line, then one
 * line per finished server, in the order they finished; each line is its MAC (spool/spool-mac.ts), a
 * space, then the JSON these schemas check. It is what an interrupted scan leaves and
 * `scan --resume` reads back, so it is untrusted input like a saved report: every line is checked
 * against these schemas, the servers against the report's own.
 */
import { z } from 'zod';
import { ServerReport } from './schema.js';

/** 2: each line's MAC before its JSON, bound to the spool's id and the line's number (1: a `mac` field in each line). */
export const SPOOL_VERSION = 2;

/**
 * What decides a listed server's report besides its target: a resumed scan must have been run with
 * the same. (The timeouts decide only which servers fail: a resumed scan may take more time.)
 */
export const SpoolRun = z.object({
  tool: z.string().max(50),
  trust: z.array(z.string().max(1_000)).max(1_000),
  sandbox: z.boolean(),
  maxPages: z.number(),
  profiles: z.array(z.string().max(1_000)).max(100),
  /** `--writable`'s real paths, sorted (what a sandboxed server could change); absent without it and in older spools. */
  writable: z.array(z.string().max(4_096)).max(1_000).optional(),
});
export type SpoolRun = z.infer<typeof SpoolRun>;

/**
 * The process that writes the spool: a scan finding a spool whose writer still runs on this host
 * (another shard or list scanning into the same --out, or the same scan started twice) leaves it
 * alone rather than taking it for one an interrupted scan left. Optional: spools written before it.
 */
export const SpoolWriter = z.object({
  pid: z.number().int().positive(),
  host: z.string().max(300),
  /** When that process started (Linux: boot id and start time in clock ticks, /proc/PID/stat), so
   * a pid the system gave since to another process is not taken for the writer. */
  started: z.string().max(80).optional(),
});
export type SpoolWriter = z.infer<typeof SpoolWriter>;

export const SpoolHeader = z.object({
  idemscanSpool: z.literal(SPOOL_VERSION),
  /** This spool's random id, which every line's MAC covers (spool/spool-mac.ts): a line of another spool is refused. */
  spool: z.string().regex(/^[0-9a-f]{32}$/),
  schemaVersion: z.string().max(20),
  /** When the scan first started: a resumed scan's report keeps it. */
  startedAt: z.iso.datetime(),
  run: SpoolRun,
  writer: SpoolWriter.optional(),
});
export type SpoolHeader = z.infer<typeof SpoolHeader>;
/** What a new spool's header is made from; its version and id are the spool's own. */
export type SpoolStart = Omit<SpoolHeader, 'idemscanSpool' | 'spool'>;

export const SpoolLine = z.object({
  /** Which target this server is (an HMAC of its launch recipe): a changed target is scanned again. */
  key: z.string().max(100),
  server: ServerReport,
});
export type SpoolLine = z.infer<typeof SpoolLine>;
