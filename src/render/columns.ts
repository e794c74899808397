/** cli-table3 draws; widths are chosen here (middle cuts, width.ts) and lines trimmed of its padding. */
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

/** cli-table3's layout is quadratic in rows (10,000 took 18 s): stacked blocks give the same lines linearly. */
export const BLOCK_ROWS = 100;

/** The last column takes cli-table3's own width unless `cutLast`. */
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

/** As cli-table3 draws it, far cheaper (10,000 servers took 1.8 s); test/unit/columns-blocks.test.ts pins both. */
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

/** Edge spaces shown as `\u0020`: padding would hide them, and `a` and `a ` must not look the same. */
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
