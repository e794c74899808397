/** One collapsible section per server: its facts, its failure, its findings and its tool table. */
import { readerPageUrl, reportRules } from '../../model/rule-pages.js';
import type { Finding, Report, ServerReport, ToolReport } from '../../model/schema.js';
import { jsonText, name, text } from './escape.js';
import { serverView } from '../view.js';
import { plural, VERDICTS, verdictInfo } from '../../model/verdicts.js';
import { sortHeader } from './servers.js';
import { fixAnnotations } from '../fix-snippet.js';
import { declaresNothing } from '../../model/advice.js';

/** Up to this many tools in the whole report, every server section starts open (and prints with JS off). */
export const OPEN_SECTIONS_UP_TO = 400;

function verdictBadge(t: ToolReport): string {
  const v = verdictInfo(t.verdict);
  // The same verdict, its reason shown: no hint at all is not the author declaring a write.
  const none = declaresNothing(t)
    ? ` <small class="undeclared" title="no behaviour hint: the spec's defaults make it a destructive write">no hints declared</small>`
    : '';
  // A verdict the server's author reviewed and accepted (--suppress): the reason, never hidden.
  const accepted = t.accepted ? ` <small class="suppressed-why">accepted: ${text(t.accepted.reason, 400)}</small>` : '';
  return `<span class="verdict v-${v.css}">${v.mark} ${v.id}</span>${none}${accepted}`;
}

function hintsCell(t: ToolReport): string {
  const entries = Object.entries(t.annotations ?? {});
  if (entries.length === 0) return `<td class="hints muted">none</td>`;
  // One line per hint, as `key: JSON value`; <br> rather than a list keeps 5,000 rows light.
  const shown = entries.slice(0, 12).map(([k, v]) => `${text(k, 60)}: ${jsonText(v, 80)}`);
  if (entries.length > 12) shown.push(`(${entries.length - 12} more)`);
  return `<td class="hints">${shown.join('<br>')}</td>`;
}

function effectiveCell(t: ToolReport): string {
  const e = t.effective;
  // Destructive and idempotent mean something only when the tool is not read-only.
  const words = e.readOnly
    ? ['read-only']
    : ['writes', ...(e.destructive ? ['destructive'] : []), ...(e.idempotent ? ['idempotent'] : [])];
  if (e.openWorld) words.push('open world');
  return `<td class="effective">${words.join(', ')}</td>`;
}

function keysCell(t: ToolReport): string {
  if (t.keyArguments.length === 0) return `<td class="muted empty">–</td>`;
  const items = t.keyArguments.map((k) => {
    const why = k.reason ? ` title="${text(`found by ${k.reason}`, 120)}"` : '';
    return `<li${why}><code>${name(k.path, 160)}</code> <span class="conf conf-${k.confidence === 'strong' ? 'strong' : 'weak'}">${k.confidence === 'strong' ? 'strong' : 'weak'}</span></li>`;
  });
  return `<td><ul class="plain">${items.join('')}</ul></td>`;
}

/** Links come from our own data, never report text, and a shared report never carries a local path. */
type RuleLinks = Map<string, string>;

function ruleLinks(report: Report, base: string | undefined): RuleLinks {
  const links: RuleLinks = new Map();
  for (const rule of reportRules(report)) {
    const url = base === undefined ? `#rule-${rule.id}` : readerPageUrl(rule, base);
    if (url !== undefined)
      links.set(rule.id, `<a class="rule" href="${text(url)}" title="${text(rule.title)}">${text(rule.id)}</a>`);
  }
  return links;
}

/** What each rule that fired means, for the in-page links (none without a finding). */
export function rulesSection(report: Report, base: string | undefined): string {
  if (base !== undefined) return '';
  const fired = new Set(
    report.servers.flatMap((s) => [...s.findings, ...s.tools.flatMap((t) => t.findings)]).map((f) => f.rule),
  );
  const rules = reportRules(report).filter((r) => fired.has(r.id));
  if (rules.length === 0) return '';
  const items = rules.map(
    (r) =>
      `<dt id="rule-${text(r.id)}"><code>${text(r.id)}</code> <span class="sev sev-${r.severity}">${r.severity}</span></dt><dd>${text(r.title)}</dd>`,
  );
  return `<section id="rules-section" aria-labelledby="rules-h"><h2 id="rules-h">Rules</h2><dl class="rules">${items.join('')}</dl></section>`;
}

/** A finding; `withTool` names its tool (server-level lists), tool rows leave it out. */
function findingItem(f: Finding, withTool: boolean, links: RuleLinks): string {
  const sev = f.severity === 'error' || f.severity === 'warning' ? f.severity : 'info';
  const tool = withTool && f.tool !== undefined ? `<code>${name(f.tool, 80)}</code> ` : '';
  const rule = links.get(f.rule) ?? `<span class="rule">${text(f.rule, 60)}</span>`;
  const fix = fixAnnotations(f);
  const fixed = fix ? ` <span class="fix">fix: <code>annotations: ${text(fix, 300)}</code></span>` : '';
  // Reviewed and accepted (--suppress): shown dimmed, with the reason, never hidden.
  const quiet = f.suppressed
    ? ` <span class="suppressed-why">suppressed: ${text(f.suppressed.reason, 400)}</span>`
    : '';
  return `<li${f.suppressed ? ' class="suppressed"' : ''}><span class="sev sev-${sev}">${sev}</span> ${tool}${rule} <span class="msg">${text(f.message, 600)}</span>${fixed}${quiet}</li>`;
}

function findingsCell(t: ToolReport, links: RuleLinks): string {
  return t.findings.length === 0
    ? `<td class="muted empty">–</td>`
    : `<td><ul class="plain findings">${t.findings.map((f) => findingItem(f, false, links)).join('')}</ul></td>`;
}

function toolRow(t: ToolReport, links: RuleLinks): string {
  const order = VERDICTS.findIndex((v) => v.id === t.verdict);
  const desc = t.description ? `<div class="desc">${text(t.description, 4_000)}</div>` : '';
  return (
    `<tr data-verdict="${verdictInfo(t.verdict).id}">` +
    `<th scope="row"><code class="tool-name">${name(t.name, 200)}</code>${desc}</th>` +
    (t.title !== undefined ? `<td class="title">${text(t.title, 200)}</td>` : `<td class="muted empty">–</td>`) +
    `<td data-v="${order}">${verdictBadge(t)}</td>` +
    hintsCell(t) +
    effectiveCell(t) +
    keysCell(t) +
    findingsCell(t, links) +
    `</tr>`
  );
}

function toolTable(s: ServerReport, i: number, links: RuleLinks): string {
  if (s.tools.length === 0) return s.status === 'ok' ? `<p class="muted">This server lists no tools.</p>` : '';
  const counts = serverView(s).counts;
  const options = VERDICTS.filter((v) => counts[v.id] > 0).map(
    (v) => `<option value="${v.id}">${v.id} (${counts[v.id]})</option>`,
  );
  const head = [
    sortHeader('Tool', 'text'),
    sortHeader('Title', 'text'),
    sortHeader('Verdict', 'num', 'in precedence order'),
    sortHeader('Hints as received', 'text'),
    sortHeader('Effective', 'text', 'what a client must assume: spec defaults for absent or non-boolean hints'),
    sortHeader('Key arguments', 'text'),
    sortHeader('Findings', 'text'),
  ].join('');
  return (
    `<div class="controls js-only" hidden><label for="vf-${i}">Verdict</label>` +
    `<select id="vf-${i}" class="verdict-filter" data-table="t-${i}"><option value="">all (${s.tools.length})</option>${options.join('')}</select>` +
    `<label for="tf-${i}">Filter tools</label>` +
    `<input id="tf-${i}" class="tool-filter" data-table="t-${i}" type="search" placeholder="name, title, description, argument…" autocomplete="off" spellcheck="false">` +
    `<output id="tc-${i}" for="vf-${i} tf-${i}" aria-live="polite">${plural(s.tools.length, 'tool')}</output></div>` +
    `<div class="table-wrap"><table id="t-${i}" class="sortable tools"><caption class="sr-only">Tools of ${text(s.name, 120)}</caption>` +
    `<thead><tr>${head}</tr></thead><tbody>${s.tools.map((t) => toolRow(t, links)).join('')}</tbody></table></div>`
  );
}

function facts(s: ServerReport): string {
  const t = s.target;
  const pkg = t.npm
    ? `npm ${t.npm}`
    : t.pypi
      ? `pypi ${t.pypi}`
      : t.mcpb
        ? `mcpb ${t.mcpb.url}`
        : t.oci
          ? `oci ${t.oci}`
          : undefined;
  const launch = pkg ?? (t.url ? t.url : [t.command, ...(t.args ?? [])].filter(Boolean).join(' '));
  const rows: [string, string][] = [['Target', `${text(t.transport)} <code>${text(launch, 400)}</code>`]];
  if (t.env?.length) rows.push(['Env names', text(t.env.join(', '), 400)]);
  if (t.headers?.length) rows.push(['Header names', text(t.headers.join(', '), 400)]);
  if (t.source) rows.push(['Source', text(t.source, 300)]);
  if (s.protocol)
    rows.push([
      'Protocol',
      `${text(s.protocol.era)} ${text(s.protocol.version, 40)}${s.protocol.negotiation ? ` <span class="muted">(${text(s.protocol.negotiation, 400)})</span>` : ''}`,
    ]);
  rows.push(['tools.idempotency', s.idempotencyCapability ? 'advertised' : 'not advertised']);
  if (s.trusted) rows.push(['Trusted', 'yes: its hints are taken at their word']);
  rows.push(['Duration', `${(s.durationMs / 1000).toFixed(1)} s`]);
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function summaryLine(s: ServerReport): string {
  const info =
    s.serverInfo && (s.serverInfo.name || s.serverInfo.version)
      ? `${s.serverInfo.name ?? ''} ${s.serverInfo.version ?? ''}`.trim()
      : '';
  const counts = serverView(s).counts;
  const chips =
    s.status === 'failed'
      ? `<span class="chip chip-failed">failed: ${text(s.failure?.kind ?? 'unknown')}</span>`
      : `<span class="chip">${plural(s.tools.length, 'tool')}</span>` +
        VERDICTS.filter((v) => counts[v.id] > 0)
          .map((v) => `<span class="chip c-${v.css}">${counts[v.id]} ${v.id}</span>`)
          .join('');
  return `<summary><span class="server-name">${name(s.name, 120)}</span>${info ? ` <span class="sub">${text(info, 120)}</span>` : ''}<span class="chips">${chips}</span></summary>`;
}

function serverSection(s: ServerReport, i: number, open: boolean, links: RuleLinks): string {
  const failure = s.failure
    ? `<div class="failure-box" role="note"><p><span class="kind">${text(s.failure.kind)}</span> ${text(s.failure.message, 2_000)}</p>` +
      (s.failure.stderr ? `<p class="muted">stderr tail:</p><pre class="stderr">${text(s.failure.stderr)}</pre>` : '') +
      `</div>`
    : '';
  const findings = s.findings.length
    ? `<h4>Server findings</h4><ul class="plain findings">${s.findings.map((f) => findingItem(f, true, links)).join('')}</ul>`
    : '';
  return (
    `<details class="server${s.status === 'failed' ? ' failed' : ''}" id="s-${i}"${open ? ' open' : ''}>${summaryLine(s)}` +
    `<div class="server-body">${facts(s)}${failure}${findings}${toolTable(s, i, links)}</div></details>`
  );
}

export function serverSections(report: Report, rulesBaseUrl?: string): string {
  const open = report.summary.tools <= OPEN_SECTIONS_UP_TO;
  const links = ruleLinks(report, rulesBaseUrl);
  return report.servers.map((s, i) => serverSection(s, i, open, links)).join('');
}
