/**
 * Plain aligned columns for the terminal reporters, drawn by cli-table3: no box drawing and no row
 * separators (a line per row keeps 80 columns and `grep` useful), two spaces between columns (its
 * `middle` border), a rule of `-` under the head (its `mid` border, drawn once in `compact` style),
 * no colours (`style.head`/`style.border` empty), numbers right-aligned (`colAligns`), the widths
 * given (`colWidths`, padding 0) and a cell wider than its column cut with `…` (`truncate`).
 *
 * What stays here, because cli-table3 cannot do it: choosing the widths before drawing (the table
 * reporter picks the widest layout that fits the terminal and cuts names in the middle, each
 * distinct, render/width.ts; cli-table3 only truncates at the end and never keeps two rows apart),
 * and `cellText` (server text escaped before it reaches any cell). cli-table3 pads the last column
 * too; its lines are trimmed so none ends in spaces (every cell's own edge spaces are escaped).
 */
import Table from 'cli-table3';
import { displayWidth } from './width.js';
import { safeText } from './terminal.js';

export interface Column {
  head: string;
  /** Numbers are right-aligned. */
  right?: boolean;
}

export const GAP = '  ';

const PLAIN = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  right: '',
  'right-mid': '',
  mid: '-',
  'mid-mid': GAP,
  middle: GAP,
};

/** Widths each column needs for its head and cells. */
export function naturalWidths(columns: readonly Column[], rows: readonly string[][]): number[] {
  // A loop, not Math.max(...rows): a spread of 100,000 rows overflows the call stack.
  return columns.map((c, i) => rows.reduce((w, r) => Math.max(w, displayWidth(r[i] ?? '')), displayWidth(c.head)));
}

/**
 * Rows cli-table3 lays out at once. Its layout (`fillInTable`) takes time quadratic in the rows: a
 * table of 10,000 servers took 18 s. Blocks of this many rows, drawn with the same widths and
 * stacked, are the same lines (no row separators, each line trimmed) in linear time.
 */
export const BLOCK_ROWS = 100;

/**
 * The lines of a table, `rule` the line of `-` under the head. The last column's width is cli-table3's
 * own measure unless `cutLast` (its width then is `widths`' last, and longer cells are cut).
 */
export function renderColumns(
  columns: readonly Column[],
  rows: readonly string[][],
  widths: readonly number[],
  rule = true,
  cutLast = false,
): string[] {
  if (rows.length <= BLOCK_ROWS) return drawColumns(columns, rows, widths, rule, cutLast);
  // Every block gets the last column's width over all rows, so each draws it as one table would.
  const last = widths.length - 1;
  const fixed = cutLast ? widths : widths.map((w, i) => (i === last ? naturalWidths(columns, rows)[last]! : w));
  const lines = drawColumns(columns, rows.slice(0, BLOCK_ROWS), fixed, rule, true);
  for (let at = BLOCK_ROWS; at < rows.length; at += BLOCK_ROWS) {
    const block = rows.slice(at, at + BLOCK_ROWS);
    if (block.every((r) => fitsPlain(r, fixed))) for (const r of block) lines.push(plainLine(r, fixed, columns));
    else lines.push(...drawColumns(undefined, block, fixed, false, true, columns));
  }
  return lines;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Every cell printable ASCII and within its width: nothing for cli-table3 to measure or cut. */
function fitsPlain(row: readonly string[], widths: readonly number[]): boolean {
  return row.every((cell, i) => cell.length <= widths[i]! && PRINTABLE_ASCII.test(cell));
}

/**
 * Such a row as cli-table3 draws it (each cell padded to its width, aligned, the gap between,
 * the line trimmed), at a fraction of its cost per cell: a table of 10,000 servers took 1.8 s
 * through cli-table3. test/unit/columns-blocks.test.ts holds the two to the same lines.
 */
function plainLine(row: readonly string[], widths: readonly number[], columns: readonly Column[]): string {
  return row
    .map((cell, i) => (columns[i]?.right ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
    .join(GAP)
    .trimEnd();
}

/** One cli-table3 table; `columns` undefined draws the rows without a head (a later block). */
export function drawColumns(
  columns: readonly Column[] | undefined,
  rows: readonly string[][],
  widths: readonly number[],
  rule: boolean,
  cutLast: boolean,
  aligned: readonly Column[] = columns ?? [],
): string[] {
  const table = new Table({
    head: columns ? columns.map((c) => c.head) : [],
    colWidths: widths.map((w, i) => (i === widths.length - 1 && !cutLast ? null : w)),
    colAligns: aligned.map((c) => (c.right ? 'right' : 'left')),
    wordWrap: false,
    truncate: '…',
    chars: rule ? PLAIN : { ...PLAIN, mid: '', 'mid-mid': '' },
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
  });
  table.push(...rows.map((r) => [...r]));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
}

/**
 * Server text for a cell: invisible characters escaped (safeText), and a leading or trailing space
 * shown as `\u0020`, since padding would hide it and `a` and `a ` must not look the same.
 */
export function cellText(text: string, max = 1_024): string {
  const clean = safeText(text, max);
  let start = 0;
  let end = clean.length;
  while (start < end && clean[start] === ' ') start++;
  while (end > start && clean[end - 1] === ' ') end--;
  return `${'\\u0020'.repeat(start)}${clean.slice(start, end)}${'\\u0020'.repeat(clean.length - end)}`;
}

/** Sum of widths with the gaps between them. */
export function totalWidth(widths: readonly number[]): number {
  return widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);
}
