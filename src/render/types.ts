import { streamOf, type ReportStream } from '../model/report-head.js';
import type { Report, ServerReport } from '../model/schema.js';

/** A way to render a report. Registered by name, with its file, in ./index.ts; `--format` picks them. */
export interface Reporter {
  render(report: Report, options?: RenderOptions): string;
  /** Written without the report in memory (a spooled scan); `render` is this, joined. */
  write?(report: ReportStream, out: (text: string) => void, options?: RenderOptions): void;
  /** Several reporters share one read of the servers (app/write-reports.ts); `write` is this over `servers()`. */
  open?(report: ReportTop, out: (text: string) => void, options?: RenderOptions): ServerWriter;
}

/** What a report is besides its servers: all a streaming reporter needs before them. */
type ReportTop = Pick<ReportStream, 'head' | 'summary'>;

/** A streaming reporter's pass, fed the servers one at a time. */
export interface ServerWriter {
  server(server: ServerReport): void;
  end(): void;
}

/** A streaming reporter: `write` is its `open` fed every server, `render` that joined, so the three cannot differ. */
export function streamingReporter(open: NonNullable<Reporter['open']>): Required<Reporter> {
  const write: NonNullable<Reporter['write']> = (report, out, options) => {
    const pass = open(report, out, options);
    for (const s of report.servers()) pass.server(s);
    pass.end();
  };
  return { open, write, render: (report, options) => joined(write, report, options) };
}

/** A reporter that writes from the stream as a whole (the table, from a fold): `render` is its `write` joined. */
export function wholeStreamReporter(write: NonNullable<Reporter['write']>): Required<Omit<Reporter, 'open'>> {
  return { write, render: (report, options) => joined(write, report, options) };
}

function joined(write: NonNullable<Reporter['write']>, report: Report, options?: RenderOptions): string {
  const parts: string[] = [];
  write(streamOf(report), (t) => parts.push(t), options);
  return parts.join('');
}

export interface RenderOptions {
  /** Without it SARIF and Markdown (which travel) link no rule pages; HTML links the installed ones. */
  rulesBaseUrl?: string;
  /** Columns the terminal reporters (table, tools) may use; unbounded when not given (a pipe). */
  width?: number;
  /** The table's pointer to every tool: `idemscan report output/report.json --format tools`. */
  toolsCommand?: string;
  /** Terminal views: SGR-dim suppressed findings (a terminal, without NO_COLOR). */
  dim?: boolean;
  /** `--sarif-uri`: the repository file SARIF results about a server point at. */
  sarifUris?: SarifUris;
}

/** Paths relative to the repository root (checked by app/sarif-uri.ts): per server name, and for every other server. */
export interface SarifUris {
  byName: ReadonlyMap<string, string>;
  all?: string;
}
