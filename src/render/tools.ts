/** `audit`'s view: one line per tool; evidence that does not fit continues on indented lines. */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Finding, Report, ServerReport, ToolReport } from '../model/schema.js';
import { HINT_NAMES, hintText, plural, VERDICTS } from '../model/verdicts.js';
import { serverView } from './view.js';
import { httpsDocs, ownPage, reportRules, ruleDocUrl, shippedPageUrl } from '../model/rule-pages.js';
import { cellText, GAP, naturalWidths, renderColumns, totalWidth, type Column } from './columns.js';
import { failureLines, failureWrap, wrap } from './table.js';
import { cutEnd, displayWidth, distinctCuts, pad, wrapTo } from './width.js';
import { terminalAnswer } from './answers.js';
import type { RenderOptions, Reporter } from './types.js';
import { fixAnnotations } from './fix-snippet.js';
import { declaresNothing } from '../model/advice.js';

function hints(t: ToolReport): string {
  const given = HINT_NAMES.flatMap((h) => {
    const text = hintText(t.annotations, h);
    return text === undefined ? [] : [`${h.replace('Hint', '')}=${cellText(text, 20)}`];
  });
  if (given.length) return given.join(' ');
  // Unprotected because nothing was declared, not because a write was: the reason, next to the verdict.
  return declaresNothing(t) ? "no hints declared (the spec's defaults make it a write)" : 'no hints';
}

function evidence(t: ToolReport): string {
  const keys = t.keyArguments.map((k) => `key ${cellText(k.path, 60)} (${k.confidence})`);
  // A verdict a suppression accepted (the server author reviewed it): the reason, beside its evidence.
  const accepted = t.accepted ? [`${t.accepted.verdict} accepted: ${cellText(t.accepted.reason, 200)}`] : [];
  return [hints(t), ...keys, ...accepted].join(', ');
}

/** `--rules-base-url` or a profile's page, else the shipped page (relative to the working directory when under it). */
export function rulePageFor(rule: string, report: Report, base: string | undefined): string | undefined {
  const info = reportRules(report).find((r) => r.id === rule);
  const https = httpsDocs(info?.docs);
  if (https) return https;
  const page = info ? ownPage(info) : undefined;
  if (!page) return undefined;
  const url = ruleDocUrl(rule, base, page);
  if (url) return url;
  const shipped = shippedPageUrl(page);
  if (!shipped) return undefined;
  const file = fileURLToPath(shipped);
  if (!existsSync(file)) return undefined;
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

function toolTable(s: ServerReport, width: number): string[] {
  const columns: Column[] = [{ head: 'tool' }, { head: 'verdict' }, { head: 'hints as received, key arguments' }];
  const verdictWidth = Math.max(...VERDICTS.map((v) => v.id.length));
  const names = s.tools.map((t) => cellText(t.name));
  // The evidence gets at least 30 columns; the name what is left (a tool name is rarely longer).
  const nameWidth = Math.max(
    8,
    Math.min(
      Number.isFinite(width) ? 48 : 128,
      width - 2 - verdictWidth - 30 - 2 * GAP.length,
      Math.max(4, ...names.map(displayWidth)),
    ),
  );
  const shown = distinctCuts(names, nameWidth);
  const widths = naturalWidths(
    columns.slice(0, 2),
    s.tools.map((_, i) => [shown[i]!]),
  );
  widths[1] = Math.max(widths[1]!, verdictWidth);
  const lead = totalWidth(widths) + GAP.length + 2;
  const room = Math.max(30, width - lead);
  // Our wrap, not cli-table3's wordWrap, which would cut a long key path with `…` instead of letting it run on.
  const rows = s.tools.flatMap((t, i) =>
    wrap(evidence(t), room).map((line, j) => (j === 0 ? [shown[i]!, t.verdict, line] : ['', '', line])),
  );
  return renderColumns(columns, rows, [...widths, 0], false).map((l) => `  ${l}`);
}

function findingLines(f: Finding, report: Report, options: RenderOptions, width: number): string[] {
  const where = f.tool === undefined ? '' : `${cellText(f.tool, 80)}: `;
  const out = [`  ${pad(f.severity, 7)}  ${cellText(f.rule, 120)}${f.suppressed ? '  (suppressed)' : ''}`];
  for (const line of wrap(`${where}${cellText(f.message, 1_000)}`, width - 11)) out.push(`${' '.repeat(11)}${line}`);
  const fix = fixAnnotations(f);
  if (fix) out.push(...wrap(`fix: add to annotations ${fix}`, width - 11).map((l) => `${' '.repeat(11)}${l}`));
  if (f.suppressed)
    out.push(
      ...wrap(
        `suppressed: ${cellText(f.suppressed.reason, 400)}${f.suppressed.expires ? ` (until ${cellText(f.suppressed.expires, 20)})` : ''}`,
        width - 11,
      ).map((l) => `${' '.repeat(11)}${l}`),
    );
  const page = rulePageFor(f.rule, report, options.rulesBaseUrl);
  if (page) out.push(`${' '.repeat(11)}${cellText(page, 300)}`);
  // Dimmed line by line: a terminal that wraps or a pager that cuts keeps each line's own reset.
  return f.suppressed && options.dim ? out.map((l) => `\x1b[2m${l}\x1b[22m`) : out;
}

/** `8 tools: 1 read-only, 2 keyed, 1 idempotent, 4 unprotected; 5 findings (1 error, 4 warnings)`. */
export function serverSummary(s: ServerReport): string {
  const verdicts = VERDICTS.map((v) => [v.id, serverView(s).counts[v.id]] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`);
  const all = [...s.tools.flatMap((t) => t.findings), ...s.findings];
  const findings = all.filter((f) => !f.suppressed);
  const suppressed = all.length - findings.length;
  const bySeverity = (['error', 'warning', 'info'] as const)
    .map((sev) => [sev, findings.filter((f) => f.severity === sev).length] as const)
    .filter(([, n]) => n > 0)
    .map(([sev, n]) => (sev === 'info' ? `${n} info` : plural(n, sev)));
  const tools = `${plural(s.tools.length, 'tool')}${verdicts.length ? `: ${verdicts.join(', ')}` : ''}`;
  const quiet = suppressed ? `, ${suppressed} suppressed` : '';
  return `${tools}; ${findings.length ? `${plural(findings.length, 'finding')} (${bySeverity.join(', ')})` : 'no findings'}${quiet}`;
}

export const toolsReporter: Reporter = {
  render(report: Report, options = {}) {
    const width = options.width ?? Infinity;
    const out: string[] = [];
    for (const s of report.servers) {
      if (out.length) out.push('');
      const era = s.protocol
        ? `${s.protocol.era} ${cellText(s.protocol.version, 24)}`
        : s.target.transport === 'static'
          ? 'saved tool list, not contacted'
          : 'unknown era';
      const info = s.serverInfo
        ? `${cellText(`${s.serverInfo.name ?? ''} ${s.serverInfo.version ?? ''}`.trim(), 80)}, `
        : '';
      out.push(
        cutEnd(
          `${cellText(s.name, 80)} (${info}${era})${s.idempotencyCapability ? ', advertises tools.idempotency' : ''}`,
          width,
        ),
      );
      if (s.status === 'failed') {
        out.push(...failureLines(s).flatMap((l, i) => failureWrap(`${i === 0 ? 'failed: ' : ''}${l}`, width, '  ')));
        continue;
      }
      if (s.tools.length) out.push(...toolTable(s, width));
      const findings = [...s.tools.flatMap((t) => t.findings), ...s.findings];
      if (findings.length) out.push('', '  findings:');
      for (const f of findings) out.push(...findingLines(f, report, options, width));
      out.push('', ...wrap(serverSummary(s), width - 2).map((l) => `  ${l}`));
      // The per-server answer, as under the scan's table (render/answers.ts).
      const answer = terminalAnswer(s);
      if (answer) out.push(...wrapTo(`what a client may do: ${answer.answer}`, width, '  ', '    '));
    }
    return out.join('\n') + '\n';
  },
};
