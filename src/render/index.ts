/** Reporters are imported lazily: HTML, Markdown, SARIF and tools bring modules a JSON-only scan never needs. */
import { FORMAT_FILES, type Format } from '../model/formats.js';
import type { Reporter } from './types.js';

export interface ReporterEntry {
  /** File written under `--out`; formats without one only print. */
  fileName?: string;
  load(): Promise<Reporter>;
}

export const REPORTERS: Readonly<Record<string, ReporterEntry>> = {
  json: { fileName: FORMAT_FILES.json, load: async () => (await import('./json.js')).jsonReporter },
  table: { load: async () => (await import('./table.js')).tableReporter },
  tools: { load: async () => (await import('./tools.js')).toolsReporter },
  html: { fileName: FORMAT_FILES.html, load: async () => (await import('./html/index.js')).htmlReporter },
  md: { fileName: FORMAT_FILES.md, load: async () => (await import('./markdown.js')).markdownReporter },
  sarif: { fileName: FORMAT_FILES.sarif, load: async () => (await import('./sarif.js')).sarifReporter },
  manifest: { fileName: FORMAT_FILES.manifest, load: async () => (await import('./manifest.js')).manifestReporter },
  csv: { fileName: FORMAT_FILES.csv, load: async () => (await import('./dataset.js')).csvReporter },
  ndjson: { fileName: FORMAT_FILES.ndjson, load: async () => (await import('./dataset.js')).ndjsonReporter },
} satisfies Record<Format, ReporterEntry>;

/** Wrapping may start a line of server text with `::`, so these whole outputs go through noCommandLines. */
const LINE_FORMATS = new Set(['table', 'tools', 'md', 'html']);

/** The reporter of a format, with its id and file. */
export async function reporter(id: string): Promise<Reporter & { id: string; fileName?: string }> {
  const entry = REPORTERS[id];
  if (!entry) throw new Error(`unknown format "${id}" (known: ${Object.keys(REPORTERS).join(', ')})`);
  const loaded = await entry.load();
  if (!LINE_FORMATS.has(id)) return { ...loaded, id, fileName: entry.fileName };
  const { noCommandLines } = await import('./terminal.js');
  const { write, open } = loaded;
  return {
    render: (report, options) => noCommandLines(loaded.render(report, options)),
    // Each piece a streaming reporter writes is whole lines, so each goes through on its own.
    ...(write ? { write: (report, out, options) => write(report, (t) => out(noCommandLines(t)), options) } : {}),
    ...(open ? { open: (report, out, options) => open(report, (t) => out(noCommandLines(t)), options) } : {}),
    id,
    fileName: entry.fileName,
  };
}
