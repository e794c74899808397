/** The server table (one sortable, filterable row per server) and the list of failed servers. */
import type { Report, ServerReport } from '../../model/schema.js';
import { name, text } from './escape.js';
import { serverView } from '../view.js';
import { plural } from '../../model/verdicts.js';

/** A header cell that the client script can sort by; `num` columns sort by their cells' data-v. */
export function sortHeader(label: string, kind: 'text' | 'num', title?: string): string {
  const t = title ? ` title="${text(title)}"` : '';
  return `<th scope="col" data-sort="${kind}"${t}><button type="button" class="sort">${label}<span class="sort-mark" aria-hidden="true"></span></button></th>`;
}

const numCell = (n: number | undefined, cls = ''): string =>
  n === undefined
    ? `<td class="n muted empty" data-v="-1">–</td>`
    : `<td class="n${cls && n > 0 ? ` ${cls}` : ''}" data-v="${n}">${n.toLocaleString('en-US')}</td>`;

function serverRow(s: ServerReport, i: number): string {
  const ok = s.status === 'ok';
  const { counts: c, protected: protectedN } = serverView(s);
  const info =
    s.serverInfo && (s.serverInfo.name || s.serverInfo.version)
      ? `${s.serverInfo.name ?? ''} ${s.serverInfo.version ?? ''}`.trim()
      : '';
  const era = s.protocol ? `<td>${text(s.protocol.era)}</td>` : `<td class="muted empty">–</td>`;
  const negotiation = s.protocol?.negotiation ? ` title="${text(s.protocol.negotiation, 400)}"` : '';
  const version = s.protocol
    ? `<td${negotiation}>${text(s.protocol.version, 40)}</td>`
    : `<td class="muted empty">–</td>`;
  const failure = s.failure
    ? `<td class="failure"><span class="kind">${text(s.failure.kind)}</span> ${text(s.failure.message, 240)}</td>`
    : `<td class="muted empty">–</td>`;
  return (
    `<tr data-i="${i}"${ok ? '' : ' class="failed"'}>` +
    `<th scope="row"><a href="#s-${i}">${name(s.name, 120)}</a>${info ? `<span class="sub">${text(info, 120)}</span>` : ''}</th>` +
    `<td><span class="status status-${ok ? 'ok' : 'failed'}">${ok ? 'ok' : 'failed'}</span></td>` +
    era +
    version +
    numCell(ok ? s.tools.length : undefined) +
    numCell(ok ? c['read-only'] : undefined) +
    numCell(ok ? protectedN : undefined, 'good') +
    numCell(ok ? c.idempotent : undefined, 'warn') +
    numCell(ok ? c.unprotected : undefined, 'bad') +
    // Of them, those that declare nothing: the same verdict, told apart (the report's advice).
    numCell(ok ? s.advice?.undeclared.count : undefined) +
    failure +
    `</tr>`
  );
}

export function serverTable(report: Report): string {
  const head = [
    sortHeader('Server', 'text'),
    sortHeader('Status', 'text'),
    sortHeader('Era', 'text'),
    sortHeader('Protocol', 'text', 'protocol version negotiated'),
    sortHeader('Tools', 'num'),
    sortHeader('Read-only', 'num'),
    sortHeader('Protected', 'num', 'protocol-keyed + keyed: safe to retry with a key'),
    sortHeader('Hint only', 'num', 'idempotent by hint alone: safe only if you trust the server'),
    sortHeader('Unprotected', 'num'),
    sortHeader(
      'No hints',
      'num',
      "of the unprotected, those that declare no hints at all (the spec's defaults make them writes)",
    ),
    sortHeader('Failure', 'text'),
  ].join('');
  const n = report.servers.length;
  return (
    `<div class="controls js-only" hidden><label for="server-filter">Find servers</label>` +
    `<input id="server-filter" type="search" placeholder="server, tool, description, argument, failure…" autocomplete="off" spellcheck="false">` +
    `<output id="server-count" for="server-filter" aria-live="polite">${plural(n, 'server')}</output></div>` +
    `<div class="table-wrap"><table id="servers" class="sortable servers"><caption class="sr-only">Servers; sortable by any column</caption>` +
    `<thead><tr>${head}</tr></thead><tbody>${report.servers.map(serverRow).join('')}</tbody></table></div>`
  );
}

/** Failed servers, always visible: kind, message and the stderr tail. */
export function failureList(report: Report): string {
  const failed = report.servers.map((s, i) => ({ s, i })).filter(({ s }) => s.status === 'failed');
  if (failed.length === 0) return '';
  const items = failed.map(
    ({ s, i }) =>
      `<li><a href="#s-${i}">${name(s.name, 120)}</a> <span class="kind">${text(s.failure?.kind ?? 'unknown')}</span> ` +
      `<span class="failure-message">${text(s.failure?.message ?? '', 2_000)}</span>` +
      (s.failure?.stderr ? `<pre class="stderr" aria-label="stderr tail">${text(s.failure.stderr)}</pre>` : '') +
      `</li>`,
  );
  return `<section id="failures" aria-labelledby="failures-h"><h2 id="failures-h">Failed servers (${failed.length})</h2><ul class="failures">${items.join('')}</ul></section>`;
}

export function skippedList(report: Report): string {
  const skipped = report.skipped ?? [];
  if (skipped.length === 0) return '';
  const rows = skipped.map(
    (k) =>
      `<tr><th scope="row">${text(k.name, 120)}</th><td>${text(k.source, 200)}</td><td>${text(k.reason, 600)}</td></tr>`,
  );
  return (
    `<section id="skipped" aria-labelledby="skipped-h"><h2 id="skipped-h">Skipped targets (${skipped.length})</h2>` +
    `<div class="table-wrap"><table class="skipped"><thead><tr><th scope="col">Target</th><th scope="col">Source</th><th scope="col">Reason</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div></section>`
  );
}
