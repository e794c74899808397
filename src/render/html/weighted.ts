/** Shown only with download figures; every number is read from the report, never recounted. */
import type { Report } from '../../model/schema.js';
import { VERDICTS } from '../../model/verdicts.js';
import { bar, countsPhrase } from './chart.js';
import { text } from './escape.js';
import { percent, serverView } from '../view.js';
import { plural, verdictInfo } from '../../model/verdicts.js';

/** Servers in the downloads chart. */
const TOP_DOWNLOADED = 20;

/** `1.2M`, `34k`, `950`: a bar's number must fit its narrow column. */
function compactCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return String(n);
}

function verdictTable(report: Report): string {
  const s = report.summary;
  const w = s.weighted!;
  const rows = VERDICTS.map(({ id: v, summaryField: key }) => {
    const x = w.verdicts[v];
    const info = verdictInfo(v);
    const note = v === 'unprotected' ? '<span class="sub">servers with at least one unprotected tool</span>' : '';
    return (
      `<tr><th scope="row"><span class="verdict v-${info.css}">${info.mark} ${info.id}</span>${note}</th>` +
      `<td class="n">${s[key].toLocaleString('en-US')}</td><td class="n">${percent(s[key], s.tools)}</td>` +
      `<td class="n">${x.servers.toLocaleString('en-US')}</td><td class="n">${x.downloads.toLocaleString('en-US')}</td>` +
      `<td class="n">${percent(x.downloads, w.downloads)}</td></tr>`
    );
  });
  return (
    `<div class="table-wrap"><table class="weighted"><caption class="sr-only">Verdicts by tools and by monthly downloads</caption>` +
    `<thead><tr><th scope="col">verdict</th><th scope="col">tools</th><th scope="col">share of tools</th>` +
    `<th scope="col">servers with one</th><th scope="col">their monthly downloads</th><th scope="col">share of downloads</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

function topChart(report: Report): string {
  const ranked = report.servers
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.status === 'ok' && typeof s.target.downloads === 'number')
    .sort((a, b) => b.s.target.downloads! - a.s.target.downloads! || a.i - b.i)
    .slice(0, TOP_DOWNLOADED);
  const rows = ranked.map(({ s, i }) => {
    const counts = serverView(s).counts;
    const downloads = s.target.downloads!;
    const label = text(
      `${s.name}: ${downloads.toLocaleString('en-US')} monthly downloads, ${plural(s.tools.length, 'tool')}: ${countsPhrase(counts)}`,
      600,
    );
    return (
      `<li><a class="bar-label" href="#s-${i}">${text(s.name, 60)}</a>` +
      `${bar(counts, label, 'bar', 10)}<span class="bar-n" title="${downloads.toLocaleString('en-US')} monthly downloads">${compactCount(downloads)}</span></li>`
    );
  });
  return (
    `<figure class="chart per-server top-downloaded"><figcaption>The ${plural(ranked.length, 'most-downloaded server')} and the verdicts of their tools; ` +
    `bars are shares of each server's tools, the number is its monthly npm downloads</figcaption><ol class="bars">${rows.join('')}</ol></figure>`
  );
}

export function weightedSection(report: Report): string {
  const w = report.summary.weighted;
  if (!w) return '';
  const unprotected = w.verdicts.unprotected;
  return (
    `<div class="charts"><section id="weighted-section" class="card chart" aria-labelledby="weighted-h"><h2 id="weighted-h">Weighted by use</h2>` +
    `<p><strong>${percent(unprotected.downloads, w.downloads)}</strong> of the monthly downloads of the ${plural(w.servers, 'server')} with a download figure ` +
    `(${w.downloads.toLocaleString('en-US')} a month) go to servers with at least one unprotected tool ` +
    `(${plural(unprotected.servers, 'server')}). A server counts in each verdict it has a tool of, so the download shares add up to more than 100%.</p>` +
    verdictTable(report) +
    topChart(report) +
    `</section></div>`
  );
}
