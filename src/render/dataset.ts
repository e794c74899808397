/**
 * `--format csv` and `--format ndjson`: the per-tool dataset (render/dataset-rows.ts, docs/DATASET.md)
 * as `tools.csv` and `tools.ndjson`, the same rows in both.
 */
import { DATASET_COLUMNS, datasetRows, HINT_COLUMNS, hintText, type DatasetRow } from './dataset-rows.js';
import { streamingReporter } from './types.js';

/** RFC 4180 line ends: CRLF after every record, the header included. */
const CRLF = '\r\n';

/**
 * A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return
 * before one) gets a leading `'`: tool names and hints come from servers, and a server may send
 * `=HYPERLINK(...)` (OWASP "CSV injection"). The `'` is part of the value in the file.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** One field per RFC 4180: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let s = String(value);
  if (FORMULA_START.has(s.charAt(0))) s = `'${s}`;
  // A plain scan for the four characters: linear, no regex on server text.
  let quote = false;
  for (let i = 0; i < s.length && !quote; i++) {
    const c = s.charCodeAt(i);
    quote = c === 44 || c === 34 || c === 10 || c === 13;
  }
  return quote ? `"${s.replaceAll('"', '""')}"` : s;
}

export const csvReporter = streamingReporter((_report, out) => {
  out(DATASET_COLUMNS.join(',') + CRLF);
  return {
    server(s) {
      for (const row of datasetRows([s])) out(csvLine(row));
    },
    end() {},
  };
});

function csvLine(row: DatasetRow): string {
  const fields = DATASET_COLUMNS.map((c) =>
    csvField(
      HINT_COLUMNS.has(c)
        ? hintText(row[c] as DatasetRow['read_only_hint'])
        : (row[c] as string | number | boolean | null),
    ),
  );
  return fields.join(',') + CRLF;
}

/**
 * One JSON object per line, keys in column order; JSON escapes every line break inside a value.
 * Hints keep their JSON type: `false` the boolean, `"false"` the string a server sent instead.
 */
export const ndjsonReporter = streamingReporter((_report, out) => ({
  server(s) {
    for (const row of datasetRows([s]))
      out(JSON.stringify(Object.fromEntries(DATASET_COLUMNS.map((c) => [c, row[c]]))) + '\n');
  },
  end() {},
}));
