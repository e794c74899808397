import { streamOf, type ReportStream } from '../model/report-head.js';
import type { Report } from '../model/schema.js';

/** A way to render a report. Registered by name, with its file, in ./index.ts; `--format` picks them. */
export interface Reporter {
  render(report: Report, options?: RenderOptions): string;
  /**
   * The same text in pieces, the servers read one at a time (a scan of thousands spooled to disk):
   * reporters that have it are written without the report in memory. `render` is this, joined.
   */
  write?(report: ReportStream, out: (text: string) => void, options?: RenderOptions): void;
}

/** A streaming reporter: `render` is its `write` joined, so the two cannot differ. */
export function streamingReporter(write: NonNullable<Reporter['write']>): Required<Reporter> {
  return {
    write,
    render(report, options) {
      const parts: string[] = [];
      write(streamOf(report), (t) => parts.push(t), options);
      return parts.join('');
    },
  };
}

export interface RenderOptions {
  /**
   * `--rules-base-url`: rule pages are linked as `<url>/<id>.md`. Without it SARIF and Markdown
   * (which travel) link none, and HTML links the pages of the installed package.
   */
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
