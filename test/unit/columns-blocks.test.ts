/** The terminal table drawn in blocks of rows (cli-table3's layout is quadratic in its rows) is the one table's lines. */
import { describe, expect, it } from 'vitest';
import { BLOCK_ROWS, drawColumns, naturalWidths, renderColumns, type Column } from '../../src/render/columns.js';

const columns: Column[] = [{ head: 'server' }, { head: 'tools', right: true }, { head: 'status' }];
const rows = Array.from({ length: BLOCK_ROWS * 2 + 17 }, (_, i) => [
  `server-${'x'.repeat(i % 13)}-${i}`,
  String((i * 7919) % 1000),
  i % 5 === 0 ? 'failed' : i === 900 ? 'ok, partial (the longest)' : 'ok',
]);

describe('renderColumns in blocks', () => {
  it('draws the same lines as one cli-table3 table, head and rule once', () => {
    const widths = naturalWidths(columns, rows);
    const blocks = renderColumns(columns, rows, widths, true, false);
    expect(blocks).toEqual(drawColumns(columns, rows, widths, true, false));
    expect(blocks.length).toBe(rows.length + 2);
    expect(blocks.filter((l) => l.startsWith('server ')).length).toBe(1);
  });

  it('and with the last column cut to a width, and right-aligned', () => {
    const right: Column[] = [{ head: 'server' }, { head: 'n', right: true }];
    const two = rows.map((r) => [r[0]!, r[1]!]);
    const widths = [12, 3];
    expect(renderColumns(right, two, widths, false, true)).toEqual(drawColumns(right, two, widths, false, true));
    const natural = naturalWidths(right, two);
    expect(renderColumns(right, two, natural, true, false)).toEqual(drawColumns(right, two, natural, true, false));
  });

  it('and when a later block holds a wide character or a cell past its width (cli-table3 draws that block)', () => {
    const mixed = rows.map((r, i) => (i === BLOCK_ROWS + 3 ? ['日本語のサーバー', r[1]!, r[2]!] : [...r]));
    mixed[BLOCK_ROWS * 2 + 1]![2] = 'ok, and a status far longer than its column';
    const widths = [...naturalWidths(columns, rows).slice(0, 2), 12];
    expect(renderColumns(columns, mixed, widths, true, true)).toEqual(drawColumns(columns, mixed, widths, true, true));
  });
});
