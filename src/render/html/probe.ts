/** The probe's outcomes on the HTML page: the same rows as the terminal and Markdown (probe-view.ts). */
import { PROBE_CONFLICTS, PROBE_OUTCOMES } from '../../model/probe-outcomes.js';
import type { Report } from '../../model/schema.js';
import { probeRows, probeSummaryText } from '../probe-view.js';
import { text } from './escape.js';

/** A server's multi-line error as lines (each escaped, at most 8), as the terminal shows it. */
const reasonHtml = (reason: string) =>
  reason
    .split('\n')
    .slice(0, 8)
    .map((l) => text(l, 400))
    .join('<br>');

export function probeSection(report: Report): string {
  if (!report.summary.probe) return '';
  const rows = probeRows(report)
    .map(
      ({ tool, probe: p }) =>
        `<tr><td>${text(tool, 200)}</td><td>${PROBE_OUTCOMES[p.outcome].mark} ${text(p.outcome)}</td><td>${p.key === null ? '-' : `<code>${text(p.key, 200)}</code>`}</td>` +
        `<td>${p.conflict ? `${text(p.conflict)}: ${text(PROBE_CONFLICTS[p.conflict])}` : '-'}</td><td class="n">${p.evidence.requests}</td><td class="n">${p.evidence.durationMs}</td><td>${reasonHtml(p.evidence.reason)}</td></tr>`,
    )
    .join('');
  return (
    `<section id="probe" class="card panel" aria-labelledby="probe-h"><h2 id="probe-h">Probe: the lost-response experiment</h2>` +
    `<p>${text(probeSummaryText(report))}. Each planned tool was called, its answer treated as lost, and the same call re-issued with the same key; its effects were real.</p>` +
    `<div class="table-wrap"><table class="probe"><thead><tr><th>tool</th><th>outcome</th><th>key</th><th>conflict</th><th>requests</th><th>ms</th><th>why</th></tr></thead><tbody>${rows}</tbody></table></div></section>`
  );
}
