/** Plain HTML that opens from disk or Pages: no script, no fetch; every value escaped, names are untrusted. */
import { protectedCount, summaryCounts } from '../../model/verdicts.js';
import { createHash } from 'node:crypto';
import type { RunEntry, RunIndex } from './index-format.js';
import { text } from '../../render/html/escape.js';
import { trendChart } from './index-trend.js';

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem}' +
  'table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #8884;padding:.3rem .5rem;text-align:left}' +
  'td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}a{margin-right:.5rem}' +
  '.trend{margin:1.5rem 0}.trend svg{width:100%;height:auto;max-width:60rem}svg text{fill:currentColor;font-size:12px}' +
  '.ytick{text-anchor:end}.xtick,.axis-label,.list-mark text{text-anchor:middle}.grid{stroke:#8886}' +
  '.series polyline,.key polyline{fill:none;stroke-width:2}.list-mark line{stroke:currentColor;stroke-dasharray:3 3}' +
  '.t-annotated{stroke:#2166ac;fill:#2166ac}.t-unprotected{stroke:#b2182b;fill:#b2182b}' +
  '.t-keyed{stroke:#1b7837;fill:#1b7837}.t-weighted{stroke:#8c510a;fill:#8c510a}' +
  '.t-unprotected polyline{stroke-dasharray:8 4}.t-keyed polyline{stroke-dasharray:2 3}.t-weighted polyline{stroke-dasharray:10 3 2 3}' +
  'text.end-label{stroke:none}.trend-key{list-style:none;padding:0}.trend svg.key{width:2.4rem;height:.8rem;margin-right:.4rem;vertical-align:middle}' +
  '.diff{font-weight:600}.servers{columns:16rem}' +
  // The behaviour table (census/behaviour/behaviour-html.ts): its section here and its own page.
  'table.agreements{width:auto}body:has(table.behaviour){max-width:100rem}.wide{overflow-x:auto}' +
  'table.behaviour td{vertical-align:top}table.behaviour td:nth-child(8){min-width:18rem}td.n{white-space:nowrap}' +
  '.differs{font-weight:600}summary{cursor:pointer}' +
  '@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}a{color:#8bf}' +
  '.t-annotated{stroke:#67a9cf;fill:#67a9cf}.t-unprotected{stroke:#ef8a62;fill:#ef8a62}' +
  '.t-keyed{stroke:#7fbf7b;fill:#7fbf7b}.t-weighted{stroke:#dfc27d;fill:#dfc27d}}';

// img-src data: for the empty favicon only (it keeps the browser from asking for /favicon.ico).
const CSP = `default-src 'none'; img-src data:; style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'; base-uri 'none'; form-action 'none'`;

/** A page of the index's own: the one style, the policy that allows only it, no script. */
export function indexShell(title: string, body: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` +
    `<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">` +
    `<title>${text(title)}</title><style>${STYLE}</style></head>\n<body><h1>${text(title)}</h1>${body}</body></html>\n`
  );
}

export const num = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en-US'));
const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((1000 * part) / whole) / 10}%` : '–');

/** The list cell: its files and entries, and whether it differs from the run before. */
function listCell(r: RunEntry): string {
  if (!r.list) return '–';
  const files = r.list.files.map((f) => text(f, 80)).join(', ') || 'no file named';
  const differs = r.differentList === true ? '<br><span class="diff">different list</span> than the run before' : '';
  return `${files} (${num(r.list.entries)} ${r.list.entries === 1 ? 'entry' : 'entries'})${differs}`;
}

/** The figure cells of one summary: the run's, or one population's. */
function figureCells(s: RunEntry['summary'], skipped: string): string[] {
  return [
    `<td class="n">${num(s.servers)}</td>`,
    `<td class="n">${num(s.serversOk)}</td>`,
    skipped,
    `<td class="n">${num(s.tools)}</td>`,
    `<td class="n">${num(s.notReadOnly)}</td>`,
    `<td class="n">${num(protectedCount(summaryCounts(s)))}</td>`,
    `<td class="n">${num(s.idempotent)}</td>`,
    `<td class="n">${num(s.unprotected)}</td>`,
    `<td class="n">${s.downloads === undefined || s.downloadsUnprotected === undefined ? '–' : pct(s.downloadsUnprotected, s.downloads)}</td>`,
  ];
}

/** A row per population, never pooled; the run's own cells span them (an older entry without populations: one row). */
function rows(r: RunEntry): string {
  const parts = r.populations?.length ? r.populations : [{ label: '–', summary: r.summary }];
  const span = parts.length > 1 ? ` rowspan="${parts.length}"` : '';
  const link = (file: string) => `<a href="${text(r.dir)}/${text(file)}">${text(file)}</a>`;
  const main = r.files.includes('report.html')
    ? `<a href="${text(r.dir)}/report.html">${text(r.dir)}</a>`
    : text(r.dir);
  return parts
    .map((p, i) => {
      const own = (cell: string) => (i === 0 ? cell : '');
      const cells = [
        own(`<th scope="row"${span}>${main}</th>`),
        own(`<td${span}>${text(r.date)}</td>`),
        own(`<td${span}>${listCell(r)}</td>`),
        `<td>${text(p.label, 200)}</td>`,
        ...figureCells(p.summary, own(`<td class="n"${span}>${num(r.skipped)}</td>`)),
        own(`<td${span}>${r.files.map(link).join(' ')}</td>`),
      ];
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
}

/** A server with a page under servers/: its name, the page's file name, and in how many runs it is. */
export interface ServerLink {
  name: string;
  page: string;
  runs: number;
}

/** Server links listed on the index page at most; every page is written all the same. */
const MAX_SERVER_LINKS = 3000;

function serverList(servers: readonly ServerLink[], runs: number): string {
  if (servers.length === 0) return '';
  const shown = servers
    .slice(0, MAX_SERVER_LINKS)
    .map(
      (s) =>
        `<li><a href="servers/${text(s.page)}.html">${text(s.name, 100)}</a>${s.runs < runs ? ` (${num(s.runs)})` : ''}</li>`,
    );
  const more = servers.length - shown.length;
  return (
    `<h2>Servers</h2><p>Each server's status, version, tools and verdicts in every run it is in ` +
    `(a number after a name: the runs it is in, when not all of them).${more > 0 ? ` The first ${num(shown.length)} of ${num(servers.length)}; every page is in <code>servers/</code>.` : ''}</p>` +
    `<ul class="servers">${shown.join('')}</ul>`
  );
}

const HEADS = [
  'run',
  'date',
  'list',
  'population',
  'servers',
  'scanned ok',
  'skipped',
  'tools',
  'not read-only',
  'keyed',
  'hint only',
  'unprotected',
  'downloads to unprotected',
  'files',
];
// Every column but the run, its date, its list and its files is a figure, right-aligned.
const NUMERIC = new Set(HEADS.filter((h) => !['run', 'date', 'list', 'population', 'files'].includes(h)));

/** The chart follows the stdio population of a run that has more than one, so its shares are never pooled. */
function trendView(index: RunIndex): RunIndex {
  const stdio = (r: RunEntry) =>
    r.populations && r.populations.length > 1 ? r.populations.find((p) => p.id === 'stdio') : undefined;
  return { ...index, runs: index.runs.map((r) => ({ ...r, summary: stdio(r)?.summary ?? r.summary })) };
}

/** `behaviour`: the behaviour table's section (census/behaviour/behaviour-render.ts, already escaped), or ''. */
export function renderIndexPage(
  index: RunIndex,
  servers: readonly ServerLink[] = [],
  title = 'idemscan census runs',
  behaviour = '',
): string {
  const head = HEADS.map((h) => `<th scope="col"${NUMERIC.has(h) ? ' class="n"' : ''}>${h}</th>`).join('');
  const body =
    index.runs.length === 0
      ? `<tr><td colspan="${HEADS.length}">No runs yet.</td></tr>`
      : index.runs.map(rows).join('');
  const differ = index.runs.filter((r) => r.differentList === true).length;
  return indexShell(
    title,
    `<p>${index.runs.length.toLocaleString('en-US')} run${index.runs.length === 1 ? '' : 's'}, newest first. ` +
      `Keyed counts protocol-keyed and keyed tools (safe to retry with the same key); hint only, tools whose <code>idempotentHint</code> alone says so; ` +
      `unprotected, tools a retry may run twice. Verdicts come from what each server declares (its tools are listed, never called). ` +
      `The population is what a run's servers are (npm packages run on stdio, remote servers over HTTP): a run of more than one has a row for each, their figures never pooled (the chart follows its stdio population). ` +
      `The list is the target files a run's entries came from${differ > 0 ? `; <span class="diff">different list</span> marks a run over other entries than the run before it (${num(differ)} here): its figures are not of the same servers` : ''}. ` +
      `The same list as JSON: <a href="index.json">index.json</a>.</p>` +
      trendChart(trendView(index)) +
      `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>` +
      behaviour +
      serverList(servers, index.runs.length),
  );
}
