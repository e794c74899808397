/** The index's kind of page (one hashed inline style, no script); every table value through escape.ts. */
import type { Agreement, BehaviourRow, BehaviourServer, BehaviourTable } from './behaviour.js';
import { PROBE_OUTCOMES } from '../../model/probe-outcomes.js';
import {
  AGREEMENT_ORDER,
  AGREEMENTS,
  agreementCell,
  expectedCell,
  expectedSentence,
  figure,
  headSentence,
  HINTS_HEAD,
  hintsCell,
  methodFigures,
  methodPoints,
  methodSentence,
  outcomeCell,
  outcomeCounts,
  reportHref,
  serversProbed,
  took,
  toolCell,
  verdictCell,
} from './behaviour-view.js';
import { when } from '../../render/view.js';
import { name, text } from '../../render/html/escape.js';
import { indexShell } from '../publish/index-page.js';

const TITLE = 'Behaviour of MCP tools: the lost-response experiment';

/** Rows the index's section lists of those that disagree; the whole table is on its own page. */
export const SECTION_ROWS = 12;

/** Our own sentences with `code` spans: escaped, then every other backtick span made <code>. */
const withCode = (s: string): string =>
  text(s, 4_000)
    .split('`')
    .map((part, i) => (i % 2 === 1 ? `<code>${part}</code>` : part))
    .join('');

/** A server's multi-line error as lines, each escaped (at most 8). */
const lines = (s: string) =>
  s
    .split('\n')
    .slice(0, 8)
    .map((l) => text(l, 400))
    .join('<br>');

const th = (heads: string[], numeric: ReadonlySet<string> = new Set()) =>
  `<thead><tr>${heads.map((h) => `<th scope="col"${numeric.has(h) ? ' class="n"' : ''}>${text(h)}</th>`).join('')}</tr></thead>`;

function agreementTable(table: BehaviourTable): string {
  const rows = AGREEMENT_ORDER.map(
    (a) =>
      `<tr><th scope="row">${text(agreementCell(a))}</th><td class="n">${figure(table.summary.agreements[a] ?? 0)}</td><td>${text(AGREEMENTS[a].meaning)}</td></tr>`,
  ).join('');
  return `<table class="agreements">${th(['agreement', 'experiments', 'meaning'], new Set(['experiments']))}<tbody>${rows}</tbody></table>`;
}

/** The sentence, the expected outcomes and the counts by agreement: the head of both. */
function summary(table: BehaviourTable): string {
  return `<p>${text(headSentence(table), 2_000)}. ${text(expectedSentence(table), 400)}</p>${byMethod(table)}${agreementTable(table)}`;
}

/** Plan and `--auto` rows apart, when there are auto rows. */
function byMethod(table: BehaviourTable): string {
  const figures = methodFigures(table);
  if (!figures.some((f) => f.method === 'auto')) return '';
  const items = figures.map((f) => {
    const over = f.overstating.slice(0, 20).map(([s, n]) => `${text(s, 80)} (${figure(n)})`);
    return `<li>${text(methodSentence(f), 600)}.${over.length ? ` Overstating tools by server: ${over.join(', ')}.` : ''}</li>`;
  });
  return `<ul class="methods">${items.join('')}</ul>`;
}

/** The server's name, linking its probe report when the table names one (reportHref). */
function serverName(s: BehaviourServer): string {
  const href = reportHref(s.report);
  return href === undefined ? name(s.name, 100) : `<a href="${text(href)}">${name(s.name, 100)}</a>`;
}

function serverRow(s: BehaviourServer): string {
  return (
    `<tr><th scope="row">${serverName(s)}</th><td>${name(s.package, 200)}</td><td>${s.version === undefined ? '—' : text(s.version, 60)}</td>` +
    `<td class="n">${figure(s.toolsListed)}</td><td class="n">${figure(s.experiments)}</td><td class="n">${figure(s.requests)}</td>` +
    `<td class="n">${text(took(s.durationMs))}</td><td>${s.error === undefined ? '' : lines(s.error)}</td></tr>`
  );
}

const SERVER_HEADS = ['server', 'package', 'version', 'tools listed', 'experiments', 'requests', 'time', 'error'];

function serverTable(table: BehaviourTable): string {
  const numeric = new Set(['tools listed', 'experiments', 'requests', 'time']);
  const body = table.servers.length
    ? table.servers.map(serverRow).join('')
    : `<tr><td colspan="${SERVER_HEADS.length}">No server.</td></tr>`;
  return `<h2 id="servers-h">Servers</h2><table class="servers-table">${th(SERVER_HEADS, numeric)}<tbody>${body}</tbody></table>`;
}

function experimentRow(r: BehaviourRow): string {
  const expected = expectedCell(r);
  const reason = text(r.reason, 400);
  return (
    `<tr><td>${name(r.server, 100)}</td><td>${name(toolCell(r), 200)}</td><td><code>${text(hintsCell(r.declared))}</code></td>` +
    `<td>${text(verdictCell(r))}</td><td>${r.key === null ? '—' : `<code>${text(r.key, 200)}</code>`}</td>` +
    `<td title="${reason}">${text(outcomeCell(r.outcome))}</td>` +
    `<td${expected.differs ? ' class="differs"' : ''}>${expected.differs ? `≠ ${text(expected.text)}` : text(expected.text)}</td>` +
    `<td><strong>${text(agreementCell(r.agreement))}</strong>: ${text(r.words, 300)}</td>` +
    `<td class="n">${figure(r.requests)} / ${figure(r.durationMs)}</td>` +
    `<td><details><summary>why</summary>${lines(r.reason)}</details></td></tr>`
  );
}

function experimentTable(table: BehaviourTable): string {
  const heads = [
    'server',
    'tool',
    'hints',
    'verdict',
    'key',
    'outcome',
    'expected',
    'agreement',
    'requests / ms',
    'why',
  ];
  const body = table.rows.length
    ? table.rows.map(experimentRow).join('')
    : `<tr><td colspan="${heads.length}">No experiment.</td></tr>`;
  return (
    `<h2 id="rows-h">Experiments</h2><p>One row per experiment (a tool planned as several cases has a row per case). ` +
    `Hints as declared, in the order ${text(HINTS_HEAD)} (— absent: the spec's default applies); expected: the outcome the library file states, ` +
    `<span class="differs">≠</span> where the probe saw another; outcomes: ${(
      Object.keys(PROBE_OUTCOMES) as (keyof typeof PROBE_OUTCOMES)[]
    )
      .filter((o) => o !== 'not-probed')
      .map((o) => `${text(outcomeCell(o))} (${text(PROBE_OUTCOMES[o].meaning)})`)
      .join(', ')}.</p>` +
    `<div class="wide"><table class="behaviour">${th(heads, new Set(['requests / ms']))}<tbody>${body}</tbody></table></div>`
  );
}

function methodSection(table: BehaviourTable): string {
  return (
    `<section id="method" aria-labelledby="method-h"><h2 id="method-h">Method and limits</h2>` +
    `<ul>${methodPoints(table)
      .map((p) => `<li>${withCode(p)}</li>`)
      .join('')}</ul></section>`
  );
}

const autoSource = (table: BehaviourTable) =>
  table.method.targets === undefined
    ? ''
    : ` and, without plans, the target list <code>${text(table.method.targets, 200)}</code>`;

/** The standalone page, ROOT/behaviour/behaviour.html beside the table's JSON. */
export function renderBehaviourPage(table: BehaviourTable): string {
  const meta =
    `<p>Made ${text(when(table.generatedAt), 40)} by idemscan ${text(table.idemscanVersion, 40)} from the plan library ` +
    `<code>${text(table.method.library, 200)}</code>${autoSource(table)}: ${text(outcomeCounts(table), 400)}. The same table as JSON: <a href="behaviour.json">behaviour.json</a>.</p>`;
  return indexShell(TITLE, meta + summary(table) + serverTable(table) + experimentTable(table) + methodSection(table));
}

/** The experiments whose declaration and behaviour disagree, overstating first: what a client author must know. */
function disagreements(table: BehaviourTable): string {
  const order: Agreement[] = ['overstates', 'understates'];
  const rows = order.flatMap((a) => acrossServers(table.rows.filter((r) => r.agreement === a)));
  if (rows.length === 0) return '';
  const shown = rows
    .slice(0, SECTION_ROWS)
    .map(
      (r) =>
        `<li><strong>${text(agreementCell(r.agreement))}</strong>: ${name(r.server, 100)} <code>${name(toolCell(r), 200)}</code>: ${text(r.words, 300)}</li>`,
    );
  const more = rows.length - shown.length;
  return (
    `<p>Where declaration and behaviour disagree, overstating first (a client told it may retry would repeat the effect):</p>` +
    `<ul class="disagree">${shown.join('')}</ul>${more > 0 ? `<p>And ${figure(more)} more on the table's page.</p>` : ''}`
  );
}

/** Round-robin over the servers, so a short list shows many of them. */
function acrossServers(rows: readonly BehaviourTable['rows'][number][]): BehaviourTable['rows'][number][] {
  const seen = new Map<string, number>();
  const rank = rows.map((r) => {
    const n = seen.get(r.server) ?? 0;
    seen.set(r.server, n + 1);
    return n;
  });
  return rows
    .map((r, i) => ({ r, n: rank[i]!, i }))
    .sort((a, b) => a.n - b.n || a.i - b.i)
    .map((x) => x.r);
}

/** The census index's section: the summary, the disagreements, and a link to the whole page at `href`. */
export function renderBehaviourSection(table: BehaviourTable, href: string): string {
  return (
    `<section id="behaviour" aria-labelledby="behaviour-h"><h2 id="behaviour-h">Behaviour table: what the tools do when a call is re-issued</h2>` +
    `<p>${table.method.targets === undefined ? "The plan library's probes" : "The plan library's probes and those without a plan (--auto)"} of ${text(serversProbed(table), 100)}, ${text(when(table.generatedAt), 40)}: each tool called, its answer treated as lost, the call re-issued, and what changed observed, beside what the tool declares.</p>` +
    summary(table) +
    disagreements(table) +
    `<p>Every experiment, the servers, the cost, and the method and limits: <a href="${text(href, 400)}">the whole table</a></p></section>`
  );
}
