/** Server text is escaped: a tool named `a|b` must not split a cell, nor `<script>` become HTML. */
import { ownPage, reportRules, ruleDocUrl } from '../model/rule-pages.js';
import { RULE } from '../model/catalogue.js';
import { mdText } from './markdown-text.js';
import type { Finding, Report, ServerReport } from '../model/schema.js';
import { trendMarkdown, weightedMarkdown } from './markdown-census.js';
import {
  headlineText,
  isAnnotated,
  plural,
  retryAdvice,
  share,
  summaryCounts,
  total,
  VERDICTS,
} from '../model/verdicts.js';
import { METHODOLOGY_PLACE, methodPoints, methodologyUrl } from './method.js';
import type { RenderOptions, Reporter } from './types.js';
import { fixAnnotations } from './fix-snippet.js';
import { probeMarkdown } from './probe-view.js';
import { headline, serverView } from './view.js';
import { answersMarkdown } from './markdown-answers.js';
import { undeclaredWords } from './advice.js';

const pct = (n: number, of: number) => (of === 0 ? '-' : `${n} (${share(n, of)})`);
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

interface Counts {
  tools: number;
  notReadOnly: number;
  keyed: number;
  annotated: number;
  readNamed: number;
}

function counts(s: ServerReport): Counts {
  const t = s.tools;
  return {
    tools: t.length,
    notReadOnly: t.filter((x) => !x.effective.readOnly).length,
    keyed: serverView(s).protected,
    annotated: t.filter((x) => isAnnotated(x.annotations)).length,
    // The rule's judgement as the report holds it: a finding per read-named tool that is not read-only.
    readNamed: new Set(t.filter((x) => x.findings.some((f) => f.rule === RULE.readNameNotReadOnly)).map((x) => x.name))
      .size,
  };
}

function summaryTable(report: Report): string[] {
  const ok = report.servers.filter((s) => s.status === 'ok');
  const lines = [
    row(['server', 'version', 'tools', 'not read-only', 'keyed', 'annotated', 'read-named, not read-only']),
    row(['---', '---', '--:', '--:', '--:', '--:', '--:']),
  ];
  const total: Counts = { tools: 0, notReadOnly: 0, keyed: 0, annotated: 0, readNamed: 0 };
  for (const s of ok) {
    const c = counts(s);
    for (const k of Object.keys(total) as (keyof Counts)[]) total[k] += c[k];
    lines.push(
      row([
        mdText(s.name, 60),
        mdText(s.serverInfo?.version ?? '-', 30),
        c.tools,
        c.notReadOnly,
        c.keyed,
        c.annotated,
        c.readNamed,
      ]),
    );
  }
  const t = total;
  lines.push(
    row([
      `**all ${plural(ok.length, 'server')}**`,
      '',
      `**${t.tools}**`,
      pct(t.notReadOnly, t.tools),
      pct(t.keyed, t.tools),
      pct(t.annotated, t.tools),
      pct(t.readNamed, t.tools),
    ]),
  );
  return lines;
}

/** All five verdicts, with counts, shares and what each tells a client: the table a study would cite. */
function verdictTable(report: Report): string[] {
  const c = summaryCounts(report.summary);
  const n = total(c);
  return [
    row(['verdict', 'tools', 'share', 'what a client may do']),
    row(['---', '--:', '--:', '---']),
    ...VERDICTS.flatMap((v) => [
      row([`${v.mark} ${v.id}`, c[v.id], share(c[v.id], n), v.meaning]),
      ...(v.id === 'unprotected' ? undeclaredRows(report, n) : []),
    ]),
    row(['**all**', `**${n}**`, n === 0 ? '-' : '100%', '']),
  ];
}

/** Under `unprotected`, its two parts: the same verdict, told apart by whether the tool declares anything. */
function undeclaredRows(report: Report, n: number): string[] {
  const { unprotected, unprotectedUndeclared: none } = report.summary;
  if (none === undefined || unprotected === 0) return [];
  return [
    row([
      '↳ unprotected, declares a write',
      unprotected - none,
      share(unprotected - none, n),
      "a hint says it writes: the author's word",
    ]),
    row([
      '↳ unprotected, declares no hints',
      none,
      share(none, n),
      "no behaviour hint: the spec's defaults make it a write",
    ]),
  ];
}

function findingsOf(s: ServerReport): Finding[] {
  return [...s.tools.flatMap((t) => t.findings), ...s.findings];
}

function findingsSection(report: Report, base: string | undefined): string[] {
  const all = report.servers.flatMap(findingsOf);
  if (all.length === 0) return ['## Findings', '', 'None.'];
  const by = (sev: string) => all.filter((f) => f.severity === sev && !f.suppressed).length;
  const suppressed = all.filter((f) => f.suppressed).length;
  const quiet = suppressed ? `; ${suppressed} suppressed (reviewed, not counted)` : '';
  const lines = [
    '## Findings',
    '',
    `${plural(all.length, 'finding')}: ${plural(by('error'), 'error')}, ${plural(by('warning'), 'warning')}, ${by('info')} info${quiet}.`,
    '',
  ];
  lines.push(row(['rule', 'default severity', 'findings', 'what it means']), row(['---', '---', '--:', '---']));
  const catalogue = reportRules(report); // the rules, then those of the profiles the scan used
  const known = new Set(catalogue.map((r) => r.id));
  const ids = [...catalogue.map((r) => r.id), ...new Set(all.map((f) => f.rule).filter((id) => !known.has(id)))];
  for (const id of ids) {
    const hits = all.filter((f) => f.rule === id);
    if (hits.length === 0) continue;
    const rule = catalogue.find((r) => r.id === id);
    // Our own pages only: a team profile's URL is theirs to show, not ours to put in a link.
    const page = rule && ownPage(rule);
    const url = page ? ruleDocUrl(id, base, page) : undefined;
    lines.push(
      row([
        url ? `[${mdText(id)}](${url})` : mdText(id),
        rule?.severity ?? hits[0]!.severity,
        hits.length,
        rule ? mdText(rule.title) : '',
      ]),
    );
  }
  for (const s of report.servers) {
    const found = findingsOf(s);
    if (found.length === 0) continue;
    lines.push(
      '',
      `### ${mdText(s.name, 80)}`,
      '',
      row(['severity', 'tool', 'rule', 'evidence', 'message']),
      row(['---', '---', '---', '---', '---']),
    );
    for (const f of found) {
      const severity = f.suppressed ? `~~${f.severity}~~ suppressed` : f.severity;
      const message = f.suppressed
        ? `${mdText(f.message, 400)} **Suppressed:** ${mdText(f.suppressed.reason, 400)}`
        : mdText(f.message, 400);
      lines.push(
        row([
          severity,
          f.tool === undefined ? '(server)' : mdText(f.tool, 80),
          mdText(f.rule),
          mdText(f.evidence ?? '', 80),
          message,
        ]),
      );
    }
    lines.push(...fixesList(found));
  }
  return lines;
}

/** The annotations to add, tool by tool: a snippet the author pastes (docs/rules/<rule>.md shows it in each SDK). */
function fixesList(found: Finding[]): string[] {
  const fixes = found.flatMap((f) => {
    const snippet = f.tool === undefined ? undefined : fixAnnotations(f);
    return snippet ? [{ f, snippet }] : [];
  });
  if (fixes.length === 0) return [];
  const out = ['', "Fixes (add to the tool's annotations):", ''];
  for (const { f, snippet } of fixes) out.push(`- ${mdText(f.tool!, 80)} (${mdText(f.rule)}): \`${snippet}\``);
  return out;
}

function advice(report: Report): string[] {
  const a = retryAdvice(summaryCounts(report.summary));
  const h = headline(report);
  // The split on a line of its own, in the same paragraph.
  const split = h.undeclared && h.unprotected > 0 ? [`${undeclaredWords(h.undeclared, h.unprotected)}.`] : [];
  return a ? ['', `${a}.`, ...split] : [];
}

/** Target entries that were not scanned, with the reason each gives (the HTML's Skipped targets). */
function skippedSection(report: Report): string[] {
  const skipped = report.skipped ?? [];
  if (skipped.length === 0) return [];
  return [
    `## Skipped targets (${skipped.length})`,
    '',
    row(['target', 'source', 'reason']),
    row(['---', '---', '---']),
    ...skipped.map((k) => row([mdText(k.name, 80), mdText(k.source, 200), mdText(k.reason, 400)])),
  ];
}

/** docs/METHODOLOGY.md, linked when its page is known (render/method.ts), else where the file is. */
function methodologyMarkdown(rulesBaseUrl: string | undefined): string {
  const url = methodologyUrl(rulesBaseUrl);
  return url === undefined ? METHODOLOGY_PLACE : `[docs/METHODOLOGY.md](${url})`;
}

/** How the figures were made and what they cannot say (render/method.ts), with the methodology page. */
function methodSection(report: Report, rulesBaseUrl: string | undefined): string[] {
  return [
    '## Method and limits',
    '',
    ...methodPoints(report).map((p) => `- ${p}`),
    '',
    `How the census is made and what it does not measure: ${methodologyMarkdown(rulesBaseUrl)}.`,
  ];
}

export const markdownReporter: Reporter = {
  render(report: Report, options?: RenderOptions) {
    const s = report.summary;
    const lines = [
      '# idemscan report',
      '',
      `${mdText(report.tool.name)} ${mdText(report.tool.version)}, ${mdText(report.startedAt)} to ${mdText(report.finishedAt)}: ` +
        `${plural(s.servers, 'server')} (${s.serversOk} scanned, ${s.serversFailed} failed), ${plural(s.tools, 'tool')}.`,
      '',
      `**${headlineText(summaryCounts(s))}.**`,
      ...advice(report),
      '',
      ...answersMarkdown(report),
      '',
      '## Verdicts',
      '',
      ...verdictTable(report),
      '',
      ...methodSection(report, options?.rulesBaseUrl),
      '',
      '## Servers',
      '',
      ...summaryTable(report),
    ];
    const failed = report.servers.filter((x) => x.status === 'failed');
    if (failed.length > 0) {
      lines.push('', 'Not scanned:', '');
      for (const f of failed)
        lines.push(`- ${mdText(f.name, 60)}: ${f.failure?.kind ?? 'failed'}: ${mdText(f.failure?.message ?? '', 300)}`);
    }
    for (const section of [
      probeMarkdown(report),
      skippedSection(report),
      weightedMarkdown(report),
      trendMarkdown(report),
    ])
      if (section.length > 0) lines.push('', ...section);
    lines.push('', ...findingsSection(report, options?.rulesBaseUrl));
    return lines.join('\n') + '\n';
  },
};
