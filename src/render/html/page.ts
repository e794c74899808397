/** Self-contained; the CSP allows only the page's own style and script by hash, should escaping ever fail. */
import { createHash } from 'node:crypto';
import type { Report } from '../../model/schema.js';
import type { RenderOptions } from '../types.js';
import { overallChart, serverChart } from './chart.js';
import { CLIENT_SCRIPT } from './client.js';
import { json, text } from './escape.js';
import { pageReport } from './fit.js';
import { duration, headline, notScanned, percent, targetFiles, when } from '../view.js';
import { plural } from '../../model/verdicts.js';
import { METHODOLOGY_PLACE, methodPoints, methodologyUrl } from '../method.js';
import { retryAdvice, summaryCounts } from '../../model/verdicts.js';
import { failureList, serverTable, skippedList } from './servers.js';
import { OPEN_SECTIONS_UP_TO, rulesSection, serverSections } from './tools.js';
import { STYLES } from './styles.js';
import { trendSection } from './trend.js';
import { probeSection } from './probe.js';
import { weightedSection } from './weighted.js';
import { answersSection } from './answers.js';
import { undeclaredWords } from '../advice.js';

const sha256 = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

// Neither may contain its own end tag: checked once, at load.
if (/<\/script/i.test(CLIENT_SCRIPT) || /<\/style/i.test(STYLES))
  throw new Error('html reporter: inline script or style contains its end tag');

/** The policy for a page whose only script and style are CLIENT_SCRIPT and STYLES. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(CLIENT_SCRIPT)}`,
  `style-src ${sha256(STYLES)}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The figure's colour says what it means: green only when every write is safe, a warning when none is. */
export function safeTone(safe: number, writes: number): string {
  if (safe === 0) return ' warn';
  return safe === writes ? ' good' : '';
}

function headlineSection(report: Report): string {
  const h = headline(report);
  const servers = `across ${plural(h.servers, 'server')}${h.serversFailed ? ` (${h.serversFailed} failed to scan)` : ''}`;
  let big: string;
  let title: string;
  let detail: string;
  let tone = '';
  if (h.servers > 0 && h.serversOk === 0) {
    // Nothing was scanned: no count of tools to show, least of all in the colour of safety.
    big = 'No server scanned';
    tone = ' bad';
    title = `every one of ${plural(h.servers, 'server')} failed to scan; see the failures below`;
    detail = '';
  } else if (h.tools === 0) {
    big = '0 tools';
    tone = ' none';
    title = `No tools were listed ${servers}`;
    detail = '';
  } else if (h.writes === 0) {
    big = `${h.tools.toLocaleString('en-US')} of ${h.tools.toLocaleString('en-US')}`;
    tone = ' good';
    title = `tools are read-only: every one can be retried freely, ${servers}`;
    detail = '';
  } else {
    big = `${h.safe.toLocaleString('en-US')} <span class="of">of ${h.writes.toLocaleString('en-US')}</span>`;
    tone = safeTone(h.safe, h.writes);
    title = `tools that are not read-only can be retried safely by a client (${percent(h.safe, h.writes)}), ${servers}`;
    detail =
      `<strong>${h.protocolKeyed.toLocaleString('en-US')}</strong> protocol-keyed (the server deduplicates an <code>idempotencyKey</code>) and ` +
      `<strong>${h.keyed.toLocaleString('en-US')}</strong> keyed (a key argument). ` +
      `<strong>${h.hintOnly.toLocaleString('en-US')}</strong> more ${h.hintOnly === 1 ? 'is' : 'are'} only hint-idempotent (safe if you trust the server); ` +
      `<strong>${h.unprotected.toLocaleString('en-US')}</strong> ${h.unprotected === 1 ? 'is' : 'are'} unprotected: a retry may repeat the effect.` +
      (h.undeclared && h.unprotected > 0 ? ` ${text(undeclaredWords(h.undeclared, h.unprotected))}.` : '');
  }
  const s = report.summary;
  const stat = (label: string, value: string, small = ''): string =>
    `<div><dt>${label}</dt><dd>${value}${small ? ` <small>${small}</small>` : ''}</dd></div>`;
  const stats = [
    stat('Servers', s.servers.toLocaleString('en-US'), serversNote(report)),
    stat('Tools', s.tools.toLocaleString('en-US')),
    stat('Read-only', s.readOnly.toLocaleString('en-US'), percent(s.readOnly, s.tools)),
    stat('Annotated', s.annotated.toLocaleString('en-US'), `${percent(s.annotated, s.tools)} carry a hint`),
  ].join('');
  const advice = retryAdvice(summaryCounts(s));
  if (advice && h.serversOk > 0) detail += `${detail ? ' ' : ''}<strong class="advice">${text(advice)}.</strong>`;
  return (
    `<section class="headline card" aria-labelledby="headline-h"><div>` +
    `<h2 id="headline-h"><span class="big${tone}">${big}</span> ${title}</h2>${detail ? `<p>${detail}</p>` : ''}</div>` +
    `<dl class="stats">${stats}</dl></section>`
  );
}

/** Our own sentences with `code` spans: escaped, then every other backtick span made <code>. */
const withCode = (s: string): string =>
  text(s)
    .split('`')
    .map((part, i) => (i % 2 === 1 ? `<code>${part}</code>` : part))
    .join('');

/** docs/METHODOLOGY.md, linked when its page is known (render/method.ts), else where the file is. */
function methodologyHtml(rulesBaseUrl: string | undefined): string {
  const url = methodologyUrl(rulesBaseUrl);
  if (url === undefined) return text(METHODOLOGY_PLACE);
  return `<a href="${text(url)}" rel="noopener noreferrer">docs/METHODOLOGY.md</a>`;
}

/** What was read and what the figures cannot say (render/method.ts), pointing at docs/METHODOLOGY.md. */
function methodSection(report: Report, rulesBaseUrl: string | undefined): string {
  return (
    `<section id="method" class="card panel" aria-labelledby="method-h"><h2 id="method-h">Method and limits</h2>` +
    `<ul>${methodPoints(report)
      .map((p) => `<li>${withCode(p)}</li>`)
      .join('')}</ul>` +
    `<p>How the census is made and what it does not measure: ${methodologyHtml(rulesBaseUrl)}.</p></section>`
  );
}

/** Failures and never-reached targets; "all scanned" only when both are none. */
function serversNote(report: Report): string {
  const skippedByStop = notScanned(report);
  const parts = [
    ...(report.summary.serversFailed ? [`${report.summary.serversFailed.toLocaleString('en-US')} failed`] : []),
    ...(skippedByStop ? [`${skippedByStop.toLocaleString('en-US')} not scanned`] : []),
  ];
  if (parts.length > 0) return parts.join(', ');
  return report.options.interrupted === true ? 'interrupted' : 'all scanned';
}

function header(report: Report, shortened: number): string {
  const files = targetFiles(report);
  const took = duration(report.startedAt, report.finishedAt);
  const meta = [
    `Scanned ${text(when(report.startedAt))}${took ? ` in ${took}` : ''}`,
    `${text(report.tool.name)} ${text(report.tool.version)}`,
    `targets: ${files.length ? files.map((f) => `<code>${text(f, 200)}</code>`).join(', ') : 'command line'}`,
  ].join(' · ');
  const left = notScanned(report);
  const interrupted =
    report.options.interrupted === true
      ? `<p class="warning" role="note">Interrupted: this report holds only the servers scanned before the stop${left ? `; ${plural(left, 'target')} ${left === 1 ? 'was' : 'were'} not scanned` : ''}.</p>`
      : '';
  const short =
    shortened > 0
      ? `<p class="warning" role="note">To keep this page small, the texts of ${plural(shortened, 'tool')} (descriptions, hints as received, key arguments, findings) are shortened here and in the JSON this page saves; verdicts and counts are complete. The JSON report (<code>--format json</code>) has them as scanned.</p>`
      : '';
  return (
    `<header class="top"><div class="brand"><h1>Retry safety of MCP tools</h1><span class="tag">idemscan report</span></div>` +
    `<p class="meta">${meta}</p>${interrupted}${short}</header>`
  );
}

function footer(report: Report, shortened: number): string {
  const m = report.manifest ?? {};
  const rows: [string, string][] = [
    [
      'Report',
      `schema ${text(report.schemaVersion)}, ${text(when(report.startedAt))} to ${text(when(report.finishedAt))}`,
    ],
  ];
  if (typeof m.node === 'string') rows.push(['Node', text(m.node, 40)]);
  if (typeof m.platform === 'string') rows.push(['Platform', text(m.platform, 200)]);
  if (Array.isArray(m.packages) && m.packages.length)
    rows.push(['Packages', text(m.packages.map(String).join(', '), 4_000)]);
  const options = Object.entries(report.options)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(' ');
  if (options) rows.push(['Options', text(options, 1_000)]);
  return (
    `<footer><dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>` +
    `<p class="actions js-only" hidden><button type="button" data-action="download">Save the report as JSON</button>` +
    `${shortened > 0 ? ` <small>(with the shortened texts of this page)</small>` : ''}</p>` +
    `<p>Scanning never calls a tool: verdicts come from what each server declares. Hints are untrusted unless the server is trusted.</p></footer>`
  );
}

/** The report's JSON, one server at a time: one escaping pass over 100 MB could exhaust V8's match list. */
function embedded(report: Report): string {
  const shell = json({ ...report, servers: [] });
  const at = shell.indexOf('"servers":[]') + '"servers":['.length;
  return `${shell.slice(0, at)}${report.servers.map((s) => json(s)).join(',')}${shell.slice(at)}`;
}

export function renderPage(full: Report, options: RenderOptions = {}): string {
  const { report, shortened } = pageReport(full);
  const h = headline(report);
  const title = h.writes > 0 ? `${h.safe} of ${h.writes} non-read-only tools retry-safe` : plural(h.tools, 'tool');
  const n = report.servers.length;
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` +
    `<meta name="referrer" content="no-referrer"><meta name="generator" content="${text(report.tool.name)} ${text(report.tool.version)}">` +
    `<link rel="icon" href="data:,">` +
    `<title>idemscan: ${text(title)}, ${plural(n, 'server')}, ${text(when(report.startedAt))}</title>` +
    `<style>${STYLES}</style></head>\n<body${report.summary.tools > OPEN_SECTIONS_UP_TO ? ' class="large"' : ''}>` +
    header(report, shortened) +
    `<main>${headlineSection(report)}` +
    answersSection(report) +
    `<div class="charts"><div class="card">${overallChart(report)}</div>` +
    (report.summary.tools > 0 ? `<div class="card">${serverChart(report)}</div>` : '') +
    `</div>` +
    probeSection(report) +
    methodSection(report, options.rulesBaseUrl) +
    weightedSection(report) +
    trendSection(report) +
    failureList(report) +
    `<section id="servers-section" aria-labelledby="servers-h"><h2 id="servers-h">Servers (${n})</h2>${serverTable(report)}</section>` +
    `<section id="tools-section" aria-labelledby="tools-h"><div class="section-head"><h2 id="tools-h">Tools by server</h2>` +
    `<p class="actions js-only" hidden><button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button></p></div>` +
    serverSections(report, options.rulesBaseUrl) +
    `</section>` +
    rulesSection(report, options.rulesBaseUrl) +
    skippedList(report) +
    `</main>` +
    footer(report, shortened) +
    `\n<script type="application/json" id="report-data">${embedded(report)}</script>` +
    `\n<script>${CLIENT_SCRIPT}</script>\n</body></html>\n`
  );
}
