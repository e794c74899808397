/** One server across runs; its text is escaped and its file name comes from `pageNames`, never from the name. */
import type { ServerRow } from './server-history.js';
import { clip } from '../../model/cut.js';
import { VERDICTS } from '../../model/verdicts.js';
import { text } from '../../render/html/escape.js';
import { indexShell, num } from './index-page.js';

// The run's date is under its name in the first cell (rows and heads must count alike).
const HEADS = ['run', 'status', 'package', 'version', 'era', 'tools', ...VERDICTS.map((v) => v.id), 'definitions'];
const NUMERIC = new Set(['tools', ...VERDICTS.map((v) => v.id)]);

/** Whether the definitions changed since the server's previous run (the next row). */
function definitionsCell(r: ServerRow['server'], before: ServerRow['server'] | undefined): string {
  if (!before) return 'first run';
  if (r.definitions === undefined || before.definitions === undefined) return '–';
  return r.definitions === before.definitions ? 'same' : '<b>changed</b>';
}

function row({ run: e, server: r }: ServerRow, before: ServerRow | undefined): string {
  const dir = text(e.dir);
  const file = e.files.includes('report.html') ? 'report.html' : 'report.json';
  const run = e.files.includes(file) ? `<a href="../${dir}/${file}">${dir}</a>` : dir;
  // The start date under the run, when the directory's name is not that date already.
  const date = e.dir === e.date ? '' : `<br>${text(e.date)}`;
  const list = e.differentList === true ? '<br><span class="diff">different list</span>' : '';
  const cells = [
    `<th scope="row">${run}${date}${list}</th>`,
    `<td>${r.status === 'ok' ? 'ok' : `failed${r.failure ? `: ${text(r.failure, 40)}` : ''}`}</td>`,
    `<td>${r.package === undefined ? '–' : text(r.package, 100)}</td>`,
    `<td>${r.version === undefined ? '–' : text(r.version, 60)}</td>`,
    `<td>${r.era === undefined ? '–' : text(r.era, 20)}</td>`,
    `<td class="n">${num(r.tools)}</td>`,
    ...VERDICTS.map((v) => `<td class="n">${num(r.counts[v.id])}</td>`),
    `<td>${definitionsCell(r, before?.server)}</td>`,
  ];
  return `<tr>${cells.join('')}</tr>`;
}

/** The page of one server; `rows` newest first (ServerHistory.rows), `of` the index's number of runs. */
export function renderServerPage(name: string, rows: readonly ServerRow[], of: number): string {
  const head = HEADS.map((h) => `<th scope="col"${NUMERIC.has(h) ? ' class="n"' : ''}>${text(h)}</th>`).join('');
  const body = rows.map((r, i) => row(r, rows[i + 1])).join('');
  return indexShell(
    `${clip(name, 100)}: every run`,
    `<p><a href="../index.html">All runs</a>. This server is in ${num(rows.length)} of ${num(of)} run${of === 1 ? '' : 's'}, newest first. ` +
      `Verdict columns count its tools (README, "Why"); <i>definitions</i> says whether any tool's definition hash changed since its run before ` +
      `(– when a report has none); <span class="diff">different list</span> marks a run over other list entries than the run before it.</p>` +
      `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`,
  );
}
