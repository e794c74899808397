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

/** A report whose servers are read as they are needed (from a spool file), each pass anew. */
export interface ReportStream {
  head: ReportHead;
  summary: Summary;
  servers(): Iterable<ServerReport>;
}

/** A report in memory as a stream: what streaming reporters read, so `render` and `write` are one code. */
export function streamOf(report: Report): ReportStream {
  const { summary, servers, ...head } = report;
  return { head, summary, servers: () => servers };
}

/** The whole report in memory, read from a stream once: for what reads it all at once (HTML, --fail-on, ...). */
export function wholeReport(stream: ReportStream): Report {
  return reportOf(stream.head, stream.summary, [...stream.servers()]);
}
