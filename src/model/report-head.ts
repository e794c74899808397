// A scan that spools its servers to disk keeps only the head in memory.
import type { Report, ServerReport, Summary } from './schema.js';

export type ReportHead = Omit<Report, 'summary' | 'servers'>;

/** Keys in the one order every writer uses. */
export function reportOf(head: ReportHead, summary: Summary, servers: ServerReport[]): Report {
  const { schemaVersion, tool, startedAt, finishedAt, options, skipped, manifest, ...rest } = head;
  return { schemaVersion, tool, startedAt, finishedAt, options, summary, servers, skipped, manifest, ...rest };
}

export interface ServerFold<T> {
  add(server: ServerReport): void;
  result(): T;
}

/** The function itself names the fold (ReportStream.fold). */
export type FoldMaker<T> = () => ServerFold<T>;

/** Servers are read from the spool as needed, each pass anew. */
export interface ReportStream {
  head: ReportHead;
  summary: Summary;
  servers(): Iterable<ServerReport>;
  /** What an earlier pass already found, else a pass now. */
  fold<T>(make: FoldMaker<T>): T;
}

export function foldOver<T>(servers: Iterable<ServerReport>, make: FoldMaker<T>): T {
  const fold = make();
  for (const s of servers) fold.add(s);
  return fold.result();
}

/** So `render` and `write` are one code. */
export function streamOf(report: Report): ReportStream {
  const { summary, servers, ...head } = report;
  return { head, summary, servers: () => servers, fold: (make) => foldOver(servers, make) };
}

export function wholeReport(stream: ReportStream): Report {
  return reportOf(stream.head, stream.summary, [...stream.servers()]);
}
