/**
 * A report without its servers: what a scan knows besides them. A scan that spools its servers to
 * disk (src/spool/) keeps only this in memory; the report is this, the summary, and the servers,
 * in the order the schema's keys are written (reportOf), whether assembled in memory or streamed.
 */
import type { Report, ServerReport, Summary } from './schema.js';

export type ReportHead = Omit<Report, 'summary' | 'servers'>;

/** The report, its keys in the one order every writer uses. */
export function reportOf(head: ReportHead, summary: Summary, servers: ServerReport[]): Report {
  const { schemaVersion, tool, startedAt, finishedAt, options, skipped, manifest, ...rest } = head;
  return { schemaVersion, tool, startedAt, finishedAt, options, summary, servers, skipped, manifest, ...rest };
}

/** What a reader needs of every server, gathered a server at a time. */
export interface ServerFold<T> {
  add(server: ServerReport): void;
  result(): T;
}

/** Makes a fresh fold; the function itself names the fold (ReportStream.fold). */
export type FoldMaker<T> = () => ServerFold<T>;

/** A report whose servers are read as they are needed (from a spool file), each pass anew. */
export interface ReportStream {
  head: ReportHead;
  summary: Summary;
  servers(): Iterable<ServerReport>;
  /**
   * `make`'s fold over the servers: what the pass that ran it already found (app/scan/post-process.ts
   * runs the table's and the lock's beside its own), else a pass now.
   */
  fold<T>(make: FoldMaker<T>): T;
}

/** `make`'s fold run over `servers`. */
export function foldOver<T>(servers: Iterable<ServerReport>, make: FoldMaker<T>): T {
  const fold = make();
  for (const s of servers) fold.add(s);
  return fold.result();
}

/** A report in memory as a stream: what streaming reporters read, so `render` and `write` are one code. */
export function streamOf(report: Report): ReportStream {
  const { summary, servers, ...head } = report;
  return { head, summary, servers: () => servers, fold: (make) => foldOver(servers, make) };
}

/** The whole report in memory, read from a stream once: for what reads it all at once (HTML, --fail-on, ...). */
export function wholeReport(stream: ReportStream): Report {
  return reportOf(stream.head, stream.summary, [...stream.servers()]);
}
