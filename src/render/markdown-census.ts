/** Census sections: they only read what the report stores; server text through mdText. */
import { describe, renderDiff, toolLabel } from './diff.js';
import { earlierName, listWords, trendHighlights } from '../compare/trend.js';
import { mdText } from './markdown-text.js';
import { when } from './view.js';
import { plural } from '../model/verdicts.js';
import type { Report } from '../model/schema.js';
import { VERDICTS } from '../model/verdicts.js';

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const n = (x: number) => x.toLocaleString('en-US');
const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((1000 * part) / whole) / 10}%` : '-');

export function weightedMarkdown(report: Report): string[] {
  const s = report.summary;
  const w = s.weighted;
  if (!w) return [];
  const lines = [
    '## Weighted by use',
    '',
    `${n(w.servers)} scanned servers have a monthly npm download figure, ${n(w.downloads)} downloads a month together. ` +
      "A server counts in a verdict's row when at least one of its tools has that verdict, so the download shares add up to more than 100%.",
    '',
    row(['verdict', 'tools', 'share of tools', 'servers with one', 'their monthly downloads', 'share of downloads']),
    row(['---', '--:', '--:', '--:', '--:', '--:']),
  ];
  for (const { id: v, summaryField: key } of VERDICTS) {
    const x = w.verdicts[v];
    const label = v === 'unprotected' ? '**unprotected** (at least one unprotected tool)' : v;
    lines.push(
      row([label, n(s[key]), pct(s[key], s.tools), n(x.servers), n(x.downloads), pct(x.downloads, w.downloads)]),
    );
  }
  return lines;
}

/** At most this many rows per list here; the JSON report has every change. */
const MAX_ROWS = 200;

export function trendMarkdown(report: Report): string[] {
  const c = report.comparedWith;
  if (!c) return [];
  const m = (s: string, max = 300) => mdText(s, max);
  const h = trendHighlights(c);
  const earlier = earlierName(c);
  const lines = [
    `## Trend since ${m(when(c.startedAt), 40)}`,
    '',
    `Compared with ${m(earlier.what, 120)} of ${m(when(c.startedAt), 40)} (${m(earlier.file, 300)}) over the ${plural(c.serversInBoth, 'server')} in both reports; ` +
      `${n(c.onlyOld)} only in the earlier one and ${n(c.onlyNew)} only in this one are not compared.` +
      (listWords(c) ? ` **${m(listWords(c)!, 200)}**` : ''),
    '',
    `### Servers whose tools or hints changed (${n(h.changedServers.length)})`,
    '',
  ];
  if (h.changedServers.length === 0) lines.push('None.');
  else {
    lines.push(row(['server', 'changes', 'worse']), row(['---', '--:', '--:']));
    for (const x of h.changedServers.slice(0, MAX_ROWS)) lines.push(row([m(x.server, 80), x.changes, x.worse]));
    lines.push(...more(h.changedServers.length));
  }
  for (const [title, list] of [
    ['Hints removed or weakened', h.hintsWeakened],
    ['New keyed tools', h.newKeyed],
  ] as const) {
    lines.push('', `### ${title} (${n(list.length)})`, '');
    if (list.length === 0) {
      lines.push('None.');
      continue;
    }
    lines.push(row(['server', 'tool', 'change']), row(['---', '---', '---']));
    for (const ch of list.slice(0, MAX_ROWS))
      lines.push(row([m(ch.server, 80), 'tool' in ch ? toolLabel(ch, m) : '', describe(ch, (s) => m(s))]));
    lines.push(...more(list.length));
  }
  // The full diff, as `idemscan diff --format md` prints it, under this section's heading.
  const full = renderDiff(c.diff, 'md').split('\n').slice(2);
  lines.push('', '### Every change over the servers in both', '', ...full);
  return lines;
}

function more(count: number): string[] {
  return count > MAX_ROWS
    ? ['', `... and ${n(count - MAX_ROWS)} more (the JSON report's comparedWith has them all).`]
    : [];
}
