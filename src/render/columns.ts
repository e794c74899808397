/**
 * Plain aligned columns for the terminal reporters: no box drawing and no row separators (a line
 * per row keeps 80 columns and `grep` useful), two spaces between columns, widths in display
 * columns (wide CJK and emoji count two).
 */
import { displayWidth, pad } from './width.js';
import { safeText } from './terminal.js';

export interface Column {
  head: string;
  /** Numbers are right-aligned. */
  right?: boolean;
}

export const GAP = '  ';

/** Widths each column needs for its head and cells. */
export function naturalWidths(columns: readonly Column[], rows: readonly string[][]): number[] {
  return columns.map((c, i) => Math.max(displayWidth(c.head), ...rows.map((r) => displayWidth(r[i] ?? ''))));
}

/** The lines of a table; the last column is not padded, so no line ends in spaces. */
export function renderColumns(columns: readonly Column[], rows: readonly string[][], widths: readonly number[], rule = true): string[] {
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 && !columns[i]!.right ? cell : pad(cell, widths[i]!, columns[i]!.right))).join(GAP);
  const head = line(columns.map((c) => c.head));
  const out = [head];
  if (rule) out.push(columns.map((_, i) => '-'.repeat(widths[i]!)).join(GAP));
  for (const r of rows) out.push(line(r));
  return out;
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
