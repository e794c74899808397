/** The stored diff (compare/trend.ts) in `idemscan diff`'s words, escaped; nothing is recomputed. */
import { describe, toolLabel } from '../diff.js';
import { earlierName, listWords, trendHighlights } from '../../compare/trend.js';
import type { Change } from '../../model/diff.js';
import type { Report } from '../../model/schema.js';
import { text } from './escape.js';
import { when } from '../view.js';
import { plural } from '../../model/verdicts.js';

/** Rows per table at most; the JSON embedded in the page (comparedWith) has every change. */
const TREND_MAX_ROWS = 300;

const show = (s: string, max = 300) => text(s, max);
const DIRECTION = { worse: ['bad', '✗ worse'], better: ['good', '✓ better'], neutral: ['', 'change'] } as const;

function changeRows(list: readonly Change[]): string {
  const rows = list.slice(0, TREND_MAX_ROWS).map((c) => {
    const [cls, word] = DIRECTION[c.direction];
    return (
      `<tr><td${cls ? ` class="${cls}"` : ''}>${word}</td><th scope="row">${show(c.server, 120)}</th>` +
      `<td>${'tool' in c ? toolLabel(c, show) : ''}</td><td>${phrase(c)}</td></tr>`
    );
  });
  return (
    `<div class="table-wrap"><table><thead><tr><th scope="col"></th><th scope="col">server</th><th scope="col">tool</th><th scope="col">change</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>${moreNote(list.length)}`
  );
}

/** Escaped server text has no `>` left, so the ` -> ` of "from -> to" is diff's own and becomes an arrow. */
function phrase(c: Change): string {
  return describe(c, (s) => show(s)).replaceAll(' -> ', ' → ');
}

function moreNote(count: number): string {
  return count > TREND_MAX_ROWS
    ? `<p class="muted">… and ${plural(count - TREND_MAX_ROWS, 'more row')}: the report's JSON (comparedWith) has them all.</p>`
    : '';
}

function block(title: string, count: number, body: string): string {
  return `<h3>${title} (${count.toLocaleString('en-US')})</h3>${count === 0 ? '<p class="muted">None.</p>' : body}`;
}

export function trendSection(report: Report): string {
  const c = report.comparedWith;
  if (!c) return '';
  const h = trendHighlights(c);
  const earlier = earlierName(c);
  const lists = listWords(c);
  const servers = h.changedServers
    .slice(0, TREND_MAX_ROWS)
    .map(
      (x) =>
        `<tr><th scope="row">${show(x.server, 120)}</th><td class="n">${x.changes.toLocaleString('en-US')}</td><td class="n${x.worse > 0 ? ' bad' : ''}">${x.worse.toLocaleString('en-US')}</td></tr>`,
    );
  const serverTable =
    `<div class="table-wrap"><table><thead><tr><th scope="col">server</th><th scope="col">changes</th><th scope="col">worse</th></tr></thead>` +
    `<tbody>${servers.join('')}</tbody></table></div>${moreNote(h.changedServers.length)}`;
  const d = c.diff;
  return (
    `<section id="trend-section" aria-labelledby="trend-h"><h2 id="trend-h">Trend since ${show(when(c.startedAt), 40)}</h2>` +
    `<p>Compared with ${show(earlier.what, 120)} of ${show(when(c.startedAt), 40)} (<code>${show(earlier.file, 300)}</code>) over the ${plural(c.serversInBoth, 'server')} in both reports; ` +
    `${c.onlyOld.toLocaleString('en-US')} only in the earlier report and ${c.onlyNew.toLocaleString('en-US')} only in this one are not compared. ` +
    (lists ? `<strong>${show(lists, 200)}</strong> ` : '') +
    `Changes: <strong>${d.counts.worse.toLocaleString('en-US')} worse</strong>, ${d.counts.better.toLocaleString('en-US')} better, ${d.counts.neutral.toLocaleString('en-US')} other.</p>` +
    block('Servers whose tools or hints changed', h.changedServers.length, serverTable) +
    block('Hints removed or weakened', h.hintsWeakened.length, changeRows(h.hintsWeakened)) +
    block('New keyed tools', h.newKeyed.length, changeRows(h.newKeyed)) +
    (d.changes.length > 0
      ? `<details class="trend-all"><summary>Every change (${d.changes.length.toLocaleString('en-US')})</summary>${changeRows(d.changes)}</details>`
      : '') +
    `</section>`
  );
}
