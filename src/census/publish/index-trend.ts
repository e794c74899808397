/** Bounded SVG, dashes and markers so nothing depends on colour; a list change is marked (shares not comparable). */
import type { RunEntry, RunIndex } from './index-format.js';
import { num, text } from '../../render/html/escape.js';

const W = 800;
const H = 300;
const PAD = { left: 48, right: 215, top: 24, bottom: 46 };
const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;
/** Runs up to which every point gets a marker with its value as a tooltip. */
export const MARKED_RUNS = 60;
const MAX_LIST_MARKS = 40;
const X_TICKS = 6;

interface Series {
  css: string;
  label: string;
  of: string;
  marker: (x: number, y: number) => string;
  value: (r: RunEntry) => number | undefined;
}

const share = (part: number, whole: number | undefined) =>
  whole === undefined || whole <= 0 ? undefined : part / whole;

const SERIES: readonly Series[] = [
  {
    css: 't-annotated',
    label: 'annotated',
    of: 'of all tools: tools that declare any annotation',
    marker: (x, y) => `<circle cx="${num(x)}" cy="${num(y)}" r="3.5"></circle>`,
    value: (r) => share(r.summary.annotated, r.summary.tools),
  },
  {
    css: 't-unprotected',
    label: 'unprotected',
    of: 'of tools that are not read-only: a retry may repeat their effect',
    marker: (x, y) => `<rect x="${num(x - 3.5)}" y="${num(y - 3.5)}" width="7" height="7"></rect>`,
    value: (r) => share(r.summary.unprotected, r.summary.notReadOnly),
  },
  {
    css: 't-keyed',
    label: 'keyed',
    of: 'of tools that are not read-only: keyed or protocol-keyed, safe to retry with the same key',
    marker: (x, y) => `<path d="M${num(x)} ${num(y - 4.5)}L${num(x + 4.5)} ${num(y + 3.5)}H${num(x - 4.5)}Z"></path>`,
    value: (r) => share(r.summary.keyed + r.summary.protocolKeyed, r.summary.notReadOnly),
  },
  {
    css: 't-weighted',
    label: 'downloads to unprotected',
    of: 'of monthly npm downloads: to servers with at least one unprotected tool',
    marker: (x, y) =>
      `<path d="M${num(x)} ${num(y - 4.5)}L${num(x + 4.5)} ${num(y)}L${num(x)} ${num(y + 4.5)}L${num(x - 4.5)} ${num(y)}Z"></path>`,
    value: (r) =>
      r.summary.downloadsUnprotected === undefined
        ? undefined
        : share(r.summary.downloadsUnprotected, r.summary.downloads),
  },
];

const pct = (v: number) => `${Math.round(v * 1000) / 10}%`;
const yOf = (v: number) => PAD.top + PLOT_H * (1 - v);

export function trendChart(index: RunIndex): string {
  const runs = [...index.runs].reverse();
  if (runs.length === 0) return '';
  const xOf = (i: number) => PAD.left + (runs.length === 1 ? PLOT_W / 2 : (PLOT_W * i) / (runs.length - 1));
  const newest = runs[runs.length - 1]!;
  const said = SERIES.map((s) => {
    const v = s.value(newest);
    return `${s.label} ${v === undefined ? 'not known' : pct(v)}`;
  }).join(', ');
  const desc = `${runs.length} run${runs.length === 1 ? '' : 's'} from ${runs[0]!.date} to ${newest.date}; the newest: ${said}.`;
  const body = [
    axes(runs, xOf),
    listMarks(runs, xOf),
    ...SERIES.map((s) => series(s, runs, xOf)),
    endLabels(runs, xOf),
  ];
  return (
    `<figure class="trend"><figcaption>Headline shares per run, oldest left (the table below has every figure)</figcaption>` +
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="trend-t trend-d" focusable="false">` +
    `<title id="trend-t">Headline shares across runs</title><desc id="trend-d">${text(desc)}</desc>` +
    `${body.join('')}</svg>${legendOf()}</figure>`
  );
}

function axes(runs: readonly RunEntry[], xOf: (i: number) => number): string {
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (v) =>
      `<line class="grid" x1="${PAD.left}" x2="${PAD.left + PLOT_W}" y1="${num(yOf(v))}" y2="${num(yOf(v))}"></line>` +
      `<text class="ytick" x="${PAD.left - 6}" y="${num(yOf(v) + 4)}">${v * 100}%</text>`,
  );
  const ticks = tickIndexes(runs.length).map(
    (i) => `<text class="xtick" x="${num(xOf(i))}" y="${H - PAD.bottom + 18}">${text(runs[i]!.date)}</text>`,
  );
  const yLabel = `<text class="axis-label" transform="translate(12 ${PAD.top + PLOT_H / 2}) rotate(-90)">share</text>`;
  const xLabel = `<text class="axis-label" x="${PAD.left + PLOT_W / 2}" y="${H - 6}">run (start date, UTC)</text>`;
  return `<g class="axes">${grid.join('')}${ticks.join('')}${yLabel}${xLabel}</g>`;
}

/** At most X_TICKS run indexes, evenly spread, the first and the last included. */
function tickIndexes(n: number): number[] {
  if (n <= X_TICKS) return [...Array(n).keys()];
  return [...new Set([...Array(X_TICKS).keys()].map((k) => Math.round((k * (n - 1)) / (X_TICKS - 1))))];
}

/** A dashed line before each run over a different list than the one before it (the first MAX_LIST_MARKS). */
function listMarks(runs: readonly RunEntry[], xOf: (i: number) => number): string {
  const marks: string[] = [];
  for (let i = 1; i < runs.length && marks.length < MAX_LIST_MARKS; i++) {
    if (runs[i]!.differentList !== true) continue;
    const x = (xOf(i - 1) + xOf(i)) / 2;
    marks.push(
      `<g class="list-mark"><title>${text(runs[i]!.dir)} covers a different list than ${text(runs[i - 1]!.dir)}</title>` +
        `<line x1="${num(x)}" x2="${num(x)}" y1="${PAD.top - 8}" y2="${PAD.top + PLOT_H}"></line>` +
        `<text x="${num(x)}" y="${PAD.top - 11}">different list</text></g>`,
    );
  }
  return marks.join('');
}

function series(s: Series, runs: readonly RunEntry[], xOf: (i: number) => number): string {
  const lines: string[] = [];
  const markers: string[] = [];
  let stretch: string[] = [];
  const flush = () => {
    if (stretch.length > 0) lines.push(`<polyline points="${stretch.join(' ')}"></polyline>`);
    stretch = [];
  };
  runs.forEach((r, i) => {
    const v = s.value(r);
    if (v === undefined) return flush();
    stretch.push(`${num(xOf(i))},${num(yOf(v))}`);
    if (runs.length <= MARKED_RUNS)
      markers.push(`<g>${s.marker(xOf(i), yOf(v))}<title>${text(r.dir)}: ${s.label} ${pct(v)}</title></g>`);
  });
  flush();
  return `<g class="series ${s.css}">${lines.join('')}${markers.join('')}</g>`;
}

/** Each series named at its newest value, right of the plot, nudged apart so no two labels overlap. */
function endLabels(runs: readonly RunEntry[], xOf: (i: number) => number): string {
  const last = runs[runs.length - 1]!;
  const placed = SERIES.flatMap((s) => {
    const v = s.value(last);
    return v === undefined ? [] : [{ s, v, y: yOf(v) + 4 }];
  }).sort((a, b) => a.y - b.y);
  for (let i = 1; i < placed.length; i++) placed[i]!.y = Math.max(placed[i]!.y, placed[i - 1]!.y + 14);
  const x = xOf(runs.length - 1) + 10;
  return placed
    .map(({ s, v, y }) => `<text class="end-label ${s.css}" x="${num(x)}" y="${num(y)}">${s.label} ${pct(v)}</text>`)
    .join('');
}

function legendOf(): string {
  const items = SERIES.map(
    (s) =>
      `<li><svg class="key ${s.css}" viewBox="0 0 36 12" aria-hidden="true" focusable="false">` +
      `<polyline points="2,6 34,6"></polyline>${s.marker(18, 6)}</svg><b>${s.label}</b>: the share ${s.of}</li>`,
  );
  return `<ul class="trend-key">${items.join('')}<li><span class="key-list" aria-hidden="true">┆</span><b>different list</b>: the run covers other list entries than the run before it, so its shares are not of the same servers</li></ul>`;
}
