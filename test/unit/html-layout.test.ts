/** The HTML page's structure behind its layout: card padding, figure colours, stacked-table labels, title cells. */
import { describe, expect, it } from 'vitest';
import { renderPage, safeTone } from '../../src/render/html/page.js';
import { serverTable } from '../../src/render/html/servers.js';
import { STYLES } from '../../src/render/html/styles.js';
import type { ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';

const writes = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ name: `write_${i}`, annotations: { readOnlyHint: false }, ...extra }));
const failed: ServerReport = {
  ...okServer('down', []),
  status: 'failed',
  failure: { kind: 'exited', message: 'the server exited with code 1' },
};

describe('headline figure', () => {
  it('is green only when every write is safe: 0 of 40 is a warning, some of them neutral', () => {
    expect(safeTone(0, 40)).toBe(' warn');
    expect(safeTone(5, 945)).toBe('');
    expect(safeTone(40, 40)).toBe(' good');
    const none = renderPage(reportOf([okServer('s', writes(40))]));
    expect(none).toContain('<span class="big warn">0 <span class="of">of 40</span></span>');
    expect(STYLES).toMatch(/\.headline \.big\{[^}]*color:var\(--fg\)/);
    expect(STYLES).toMatch(/\.headline \.big\.warn\{color:var\(--id-fg\)\}/);
  });
});

describe('cards', () => {
  it('give the answers and method cards the inner padding of the others', () => {
    const page = renderPage(reportOf([okServer('s', writes(2))]));
    expect(page).toContain('<section id="answers" class="card panel"');
    expect(page).toContain('<section id="method" class="card panel"');
    expect(STYLES).toMatch(/\.panel\{[^}]*padding:4px 22px 18px/);
  });
});

describe('servers table stacked on narrow screens', () => {
  it('labels each cell with its own column header, in order', () => {
    const headers = [...serverTable(reportOf([failed])).matchAll(/class="sort">([^<]+)</g)].map((m) => m[1]);
    const labels = [...STYLES.matchAll(/table\.servers td:nth-child\((\d+)\)::before\{content:"([^"]+)"\}/g)];
    expect(labels.map((m) => [Number(m[1]), m[2]])).toEqual(headers.slice(1).map((h, i) => [i + 2, h]));
  });

  it('wraps a long failure inside its cell', () => {
    expect(STYLES).toMatch(/(^|\n)td\.failure\{[^}]*overflow-wrap:anywhere/);
    expect(STYLES).toMatch(/table\.servers td\.failure\{white-space:normal\}/);
  });
});

describe('titles', () => {
  it('never split an ordinary word: headings wrap at spaces, table titles have a floor wider than a word', () => {
    const page = renderPage(reportOf([okServer('s', writes(1, { title: 'Documentation Management' }))]));
    expect(page).toContain('<td class="title">Documentation Management</td>');
    expect(STYLES).toMatch(/h1,h2,h3,h4,figcaption,summary\{overflow-wrap:break-word;word-break:normal/);
    // In a table, break-word would widen the column to a hostile token's length: a floor, then anywhere.
    expect(STYLES).toMatch(/table\.tools td\.title,table\.tools \.tool-name\{overflow-wrap:anywhere;word-break:normal/);
    expect(STYLES).toMatch(/table\.tools td:nth-child\(2\)\{min-width:10rem/);
  });
});
