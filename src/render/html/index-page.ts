/**
 * `output/ecosystem/index.html`: every published run, newest first, with its figures and links to
 * its files. Plain HTML that opens from disk or GitHub Pages: no script, no fetch, one inline style
 * allowed by its hash. Directory and file names are checked by the index schema (compare/run-index.ts)
 * and escaped here all the same, as every other value.
 */
import { protectedCount, summaryCounts } from '../../model/verdicts.js';
import { createHash } from 'node:crypto';
import type { RunEntry, RunIndex } from '../../compare/run-index.js';
import { text } from './escape.js';

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem}' +
  'table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #8884;padding:.3rem .5rem;text-align:left}' +
  'td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}a{margin-right:.5rem}' +
  '@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}a{color:#8bf}}';

const CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'; base-uri 'none'; form-action 'none'`;

const num = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en-US'));
const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((1000 * part) / whole) / 10}%` : '–');

function row(r: RunEntry): string {
  const s = r.summary;
  const link = (file: string) => `<a href="${text(r.dir)}/${text(file)}">${text(file)}</a>`;
  const main = r.files.includes('report.html')
    ? `<a href="${text(r.dir)}/report.html">${text(r.dir)}</a>`
    : text(r.dir);
  const cells = [
    `<th scope="row">${main}</th>`,
    `<td>${text(r.date)}</td>`,
    `<td class="n">${num(s.servers)}</td>`,
    `<td class="n">${num(s.serversOk)}</td>`,
    `<td class="n">${num(r.skipped)}</td>`,
    `<td class="n">${num(s.tools)}</td>`,
    `<td class="n">${num(s.notReadOnly)}</td>`,
    `<td class="n">${num(protectedCount(summaryCounts(s)))}</td>`,
    `<td class="n">${num(s.idempotent)}</td>`,
    `<td class="n">${num(s.unprotected)}</td>`,
    `<td class="n">${s.downloads === undefined || s.downloadsUnprotected === undefined ? '–' : pct(s.downloadsUnprotected, s.downloads)}</td>`,
    `<td>${r.files.map(link).join(' ')}</td>`,
  ];
  return `<tr>${cells.join('')}</tr>`;
}

export function renderIndexPage(index: RunIndex, title = 'idemscan census runs'): string {
  // Every column but the run, its date and its files is a figure, right-aligned.
  const heads = [
    'run',
    'date',
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
  const numeric = new Set(heads.filter((h) => !['run', 'date', 'files'].includes(h)));
  const head = heads.map((h) => `<th scope="col"${numeric.has(h) ? ' class="n"' : ''}>${h}</th>`).join('');
  const body =
    index.runs.length === 0 ? `<tr><td colspan="${heads.length}">No runs yet.</td></tr>` : index.runs.map(row).join('');
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` +
    `<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">` +
    `<title>${text(title)}</title><style>${STYLE}</style></head>\n<body><h1>${text(title)}</h1>` +
    `<p>${index.runs.length.toLocaleString('en-US')} run${index.runs.length === 1 ? '' : 's'}, newest first. ` +
    `Keyed counts protocol-keyed and keyed tools (safe to retry with the same key); hint only, tools whose <code>idempotentHint</code> alone says so; ` +
    `unprotected, tools a retry may run twice. Verdicts come from what each server declares (its tools are listed, never called). ` +
    `The same list as JSON: <a href="index.json">index.json</a>.</p>` +
    `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></body></html>\n`
  );
}
