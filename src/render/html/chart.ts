/** Numbers are in each bar's label, <title> and the legend, so nothing depends on colour alone. */
import type { Report } from '../../model/schema.js';
import { num, text } from './escape.js';
import { overall, percent, serverView } from '../view.js';
import { plural, VERDICTS, type VerdictCounts } from '../../model/verdicts.js';

const WIDTH = 1000;
/** Servers drawn in the per-server chart at most (largest first); the table lists them all. */
const CHART_MAX_SERVERS = 40;

/** `3 read-only, 2 keyed, 1 unprotected` (verdicts with no tools left out). */
export function countsPhrase(counts: VerdictCounts): string {
  const parts = VERDICTS.filter((v) => counts[v.id] > 0).map((v) => `${counts[v.id]} ${v.id}`);
  return parts.length ? parts.join(', ') : 'no tools';
}

function segments(counts: VerdictCounts, height: number): string {
  const total = VERDICTS.reduce((n, v) => n + counts[v.id], 0);
  if (total === 0) return `<rect class="f-none" x="0" y="0" width="${WIDTH}" height="${height}"></rect>`;
  let done = 0;
  let x = 0;
  const out: string[] = [];
  for (const v of VERDICTS) {
    const n = counts[v.id];
    if (n === 0) continue;
    done += n;
    // Cumulative rounding: the segments always end exactly at WIDTH.
    const end = Math.round((done / total) * WIDTH);
    out.push(
      `<rect class="f-${v.css}" x="${num(x)}" y="0" width="${num(end - x)}" height="${height}"><title>${v.id}: ${n} (${percent(n, total)})</title></rect>`,
    );
    x = end;
  }
  return out.join('');
}

export function bar(counts: VerdictCounts, label: string, cls: string, height: number): string {
  return (
    `<svg class="${cls}" role="img" aria-label="${label}" viewBox="0 0 ${WIDTH} ${height}" preserveAspectRatio="none" focusable="false">` +
    `<title>${label}</title>${segments(counts, height)}</svg>`
  );
}

/** The legend doubles as the key to the verdicts: colour, mark, word, count, share and meaning. */
function legend(counts: VerdictCounts): string {
  const total = VERDICTS.reduce((n, v) => n + counts[v.id], 0);
  const rows = VERDICTS.map(
    (v) =>
      `<li><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true" focusable="false"><rect class="f-${v.css}" width="10" height="10" rx="2"></rect></svg>` +
      `<span class="verdict-name">${v.mark} ${v.id}</span><span class="legend-n">${counts[v.id].toLocaleString('en-US')}</span>` +
      `<span class="legend-p">${percent(counts[v.id], total)}</span><span class="legend-m">${text(v.meaning)}</span></li>`,
  );
  return `<ul class="legend">${rows.join('')}</ul>`;
}

export function overallChart(report: Report): string {
  const counts = overall(report);
  const label = text(`All ${plural(report.summary.tools, 'tool')}: ${countsPhrase(counts)}`);
  return `<figure class="chart overall"><figcaption>Verdicts of all ${plural(report.summary.tools, 'tool')}</figcaption>${bar(counts, label, 'bar bar-big', 24)}${legend(counts)}</figure>`;
}

export function serverChart(report: Report): string {
  const drawn = report.servers
    .map((s, i) => ({ s, i, counts: serverView(s).counts }))
    .filter((x) => x.s.tools.length > 0)
    .sort((a, b) => b.s.tools.length - a.s.tools.length || a.i - b.i);
  if (drawn.length === 0) return '';
  const shown = drawn.slice(0, CHART_MAX_SERVERS);
  const rows = shown.map(({ s, i, counts }) => {
    const label = text(`${s.name}: ${plural(s.tools.length, 'tool')}: ${countsPhrase(counts)}`, 600);
    return (
      `<li><a class="bar-label" href="#s-${i}">${text(s.name, 60)}</a>` +
      `${bar(counts, label, 'bar', 10)}<span class="bar-n">${s.tools.length.toLocaleString('en-US')}</span></li>`
    );
  });
  const more = drawn.length - shown.length;
  const caption =
    `Verdicts per server, ${more > 0 ? `the ${shown.length} with the most tools` : 'by number of tools'}` +
    `${more > 0 ? ` (${plural(more, 'more server')} in the table below)` : ''}; bars are shares, the number is the tool count`;
  return `<figure class="chart per-server"><figcaption>${caption}</figcaption><ol class="bars">${rows.join('')}</ol></figure>`;
}
