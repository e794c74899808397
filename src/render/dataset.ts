/** `--format csv` and `--format ndjson`: the same dataset rows in both. */
import { DATASET_COLUMNS, datasetRows, HINT_COLUMNS, hintText, runColumns, type DatasetRow } from './dataset-rows.js';
import { streamingReporter } from './types.js';

/** RFC 4180 line ends: CRLF after every record, the header included. */
const CRLF = '\r\n';

/** What a spreadsheet reads as the start of a formula (a tab or carriage return can hide one). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** OWASP "CSV injection": cells are server text. A plain npm scope name is left unguarded (no call, no DDE). */
export function needsFormulaGuard(s: string): boolean {
  const first = s.charAt(0);
  if (!FORMULA_START.has(first)) return false;
  return first !== '@' || !isScopedPackageName(s);
}

/** `@scope/name`, each part one or more of [a-z0-9-._~], at most npm's 214 characters. */
function isScopedPackageName(s: string): boolean {
  if (s.length > 214) return false;
  let slash = -1;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2f) {
      if (slash >= 0) return false;
      slash = i;
    } else if (!isNameChar(c)) return false;
  }
  return slash > 1 && slash < s.length - 1;
}

/** a-z, 0-9, `-`, `.`, `_`, `~`. */
const isNameChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;

/** One field per RFC 4180: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let s = String(value);
  if (needsFormulaGuard(s)) s = `'${s}`;
  // A plain scan for the four characters: linear, no regex on server text.
  let quote = false;
  for (let i = 0; i < s.length && !quote; i++) {
    const c = s.charCodeAt(i);
    quote = c === 44 || c === 34 || c === 10 || c === 13;
  }
  return quote ? `"${s.replaceAll('"', '""')}"` : s;
}

export const csvReporter = streamingReporter((report, out) => {
  out(DATASET_COLUMNS.join(',') + CRLF);
  const run = runColumns(report.head);
  return {
    server(s) {
      for (const row of datasetRows([s], run)) out(csvLine(row));
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

/** Hints keep their JSON type: `false` the boolean, `"false"` a string the server sent. */
export const ndjsonReporter = streamingReporter((report, out) => {
  const run = runColumns(report.head);
  return {
    server(s) {
      for (const row of datasetRows([s], run))
        out(JSON.stringify(Object.fromEntries(DATASET_COLUMNS.map((c) => [c, row[c]]))) + '\n');
    },
    end() {},
  };
});
