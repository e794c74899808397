/** Counts come from the report, never from classify/; fits `width` by shortening headings and cutting names. */
import type { Report, ServerReport, Summary, Verdict } from '../model/schema.js';
import { headline, serverView } from './view.js';
import { headlineText, plural, summaryCounts, VERDICTS } from '../model/verdicts.js';
import { noCommandLines } from './terminal.js';
import { cellText, naturalWidths, renderColumns, totalWidth, type Column } from './columns.js';
import { displayWidth, distinctCuts, wrapBounded, wrapTo } from './width.js';
import { tellingLine } from './stderr-line.js';
import type { ServerFold } from '../model/report-head.js';
import { wholeStreamReporter } from './types.js';
import { unprotectedLines, worstServers, type WorstServers } from './unprotected.js';
import { answerLines, answersFold, type Answers } from './answers.js';
import { undeclaredWords } from './advice.js';

/** Headings of the verdict columns, from the longest to the shortest. */
const VERDICT_HEADS: Record<Verdict, readonly string[]> = {
  'read-only': ['read-only', 'r-only', 'ro'],
  'protocol-keyed': ['protocol-keyed', 'p-keyed', 'pk'],
  keyed: ['keyed', 'keyed', 'key'],
  idempotent: ['idempotent', 'idemp', 'id'],
  unprotected: ['unprotected', 'unprot', 'un'],
};
/** Names are never cut below this, even if the line then overflows a very narrow terminal. */
const MIN_NAME = 8;
/** Nor the status column. */
const MIN_STATUS = 6;
/** A skipped entry's reason is the targets file's own words, known to its author: a short wrap. */
const SKIPPED_LINES = 3;
/** A name column wider than this only makes the other columns hard to follow. */
const MAX_NAME = 60;

interface Row {
  /** A failed server's reason and its telling stderr line, shown under its row. */
  failure?: string[];
  name: string;
  protocol: string;
  version: string;
  counts: number[];
  tools: number;
  status: string;
}

function serverRow(s: ServerReport): Row {
  const { counts: byVerdict, partial } = serverView(s);
  const counts = VERDICTS.map((v) => byVerdict[v.id]);
  return {
    failure: s.status === 'failed' ? failureLines(s) : undefined,
    name: cellText(s.name),
    // The version is what the server answered: escaped like any server text.
    protocol: s.protocol ? `${s.protocol.era} ${cellText(s.protocol.version, 24)}` : '-',
    version: s.protocol ? cellText(s.protocol.version, 24) : '-',
    counts,
    tools: s.tools.length,
    status: s.status === 'ok' ? (partial ? 'ok, partial' : 'ok') : 'failed',
  };
}

function totalRow(t: Summary): Row {
  const byVerdict = summaryCounts(t);
  return {
    name: 'total',
    protocol: '',
    version: '',
    counts: VERDICTS.map((v) => byVerdict[v.id]),
    tools: t.tools,
    status: t.serversFailed ? `${t.serversFailed} failed` : 'all ok',
  };
}

interface Layout {
  heads: number;
  protocol: 'full' | 'version' | 'none';
}

/** From the widest layout to the narrowest; the first whose line fits `width` wins. */
const LAYOUTS: Layout[] = [
  { heads: 0, protocol: 'full' },
  { heads: 1, protocol: 'full' },
  { heads: 1, protocol: 'version' },
  { heads: 1, protocol: 'none' },
  { heads: 2, protocol: 'none' },
];

function columnsOf(layout: Layout): Column[] {
  return [
    { head: 'server' },
    ...(layout.protocol === 'none' ? [] : [{ head: 'protocol' }]),
    { head: 'tools', right: true },
    ...VERDICTS.map((v) => ({ head: VERDICT_HEADS[v.id][layout.heads]!, right: true })),
    { head: 'status' },
  ];
}

function cells(row: Row, layout: Layout, name: string): string[] {
  const protocol = layout.protocol === 'full' ? [row.protocol] : layout.protocol === 'version' ? [row.version] : [];
  return [name, ...protocol, String(row.tools), ...row.counts.map(String), row.status];
}

export interface TableText {
  lines: string[];
  width: number;
}

/** The servers are read once, each to a small row, so a spooled scan is never all in memory. */
export function summaryTable(servers: Iterable<ServerReport>, summary: Summary, width = Infinity): TableText {
  return tableOf([...servers].map(serverRow), summary, width);
}

/** What the table needs of the servers: a small row each, and the worst unprotected ones. */
export interface TableFolded {
  rows: Row[];
  worst: WorstServers;
  answers: Answers;
}

/** Widths depend on every row, so the small rows are kept; it runs in a scan's first pass. */
export function tableFold(): ServerFold<TableFolded> {
  const rows: Row[] = [];
  const worst = worstServers();
  const answers = answersFold();
  return {
    add(s) {
      rows.push(serverRow(s));
      worst.add(s);
      answers.add(s);
    },
    result: () => ({ rows, worst: worst.result(), answers: answers.result() }),
  };
}

function tableOf(servers: readonly Row[], summary: Summary, width: number): TableText {
  const rows = [...servers, totalRow(summary)];
  const names = rows.map((r) => r.name);
  const longest = Math.min(
    Number.isFinite(width) ? MAX_NAME : Infinity,
    names.reduce((w, n) => Math.max(w, displayWidth(n)), 6),
  );
  // Widest layout with names whole, else names 20 columns; two-letter headings only when nothing else fits.
  const rooms = LAYOUTS.map((l) => {
    const widths = naturalWidths(
      columnsOf(l),
      rows.map((r) => cells(r, l, '')),
    );
    return width - totalWidth(widths) + widths[0]!; // columns the names may take
  });
  let pick = rooms.findIndex((room, i) => room >= longest && LAYOUTS[i]!.heads < 2);
  if (pick < 0) pick = rooms.findIndex((room) => room >= Math.min(longest, 20));
  if (pick < 0) pick = LAYOUTS.length - 1;
  const layout = LAYOUTS[pick]!;
  const nameWidth = Math.max(MIN_NAME, Math.min(longest, rooms[pick]!));
  const shown = distinctCuts(names, nameWidth);
  const columns = columnsOf(layout);
  const table = rows.map((r, i) => cells(r, layout, shown[i]!));
  const widths = naturalWidths(columns, table);
  const statusIndex = columns.length - 1;
  // The status column is cut last of all, and only on terminals narrower than everything else.
  const over = totalWidth(widths) - width;
  if (over > 0) widths[statusIndex] = Math.max(MIN_STATUS, widths[statusIndex]! - over);
  const [head, rule, ...body] = renderColumns(columns, table, widths, true, over > 0);
  const tableWidth = totalWidth(widths);
  // As wide as the table (80 at least) on a terminal; whole lines on a pipe, for a log or grep.
  const detailWidth = Number.isFinite(width) ? Math.min(width, Math.max(tableWidth, 80)) : Infinity;
  const lines = [head!, rule!];
  for (let i = 0; i < rows.length - 1; i++) {
    lines.push(body[i]!);
    // A failed server's reason and its last stderr line go right under its row, wrapped: the advice is at the end.
    for (const l of rows[i]!.failure ?? []) lines.push(...failureWrap(l, detailWidth, '    '));
  }
  lines.push(rule!, body[body.length - 1]!);
  return { lines, width: tableWidth };
}

/** A failure line wrapped under `lead` with a hanging indent; bounded, as it quotes the server. */
export function failureWrap(line: string, width: number, lead: string, rest = `${lead}    `, max?: number): string[] {
  return wrapBounded(line, width, lead, rest, max);
}

/** The failure in words, then the line of the server's stderr that says what went wrong (else its last). */
export function failureLines(s: ServerReport): string[] {
  const out = [`${s.failure?.kind ?? 'failed'}: ${cellText(s.failure?.message ?? '', 300)}`];
  const telling = tellingLine(s.failure?.stderr ?? '');
  if (telling) out.push(`stderr: ${cellText(telling, 300)}`);
  return out;
}

/** In the words the HTML and Markdown use (verdicts.ts). */
export function headlineLines(report: Pick<Report, 'summary'>): string[] {
  const h = headline(report);
  const across = `across ${plural(h.servers, 'server')}${h.serversFailed ? ` (${h.serversFailed} failed to scan)` : ''}`;
  const first = `${headlineText(summaryCounts(report.summary))}, ${across}.`;
  if (h.tools === 0 || h.writes === 0) return [first];
  const n = (x: number) => x.toLocaleString('en-US');
  const verb = (x: number, one: string, many: string) => (x === 1 ? one : many);
  // Tools that declare nothing are counted apart: the same verdict, but no author said they write.
  const split = h.undeclared && h.unprotected > 0 ? ` ${undeclaredWords(h.undeclared, h.unprotected)}.` : '';
  return [
    first,
    `${n(h.protocolKeyed)} protocol-keyed and ${n(h.keyed)} keyed; ${n(h.hintOnly)} more ${verb(h.hintOnly, 'is', 'are')} only hint-idempotent ` +
      `(safe if you trust the server); ${n(h.unprotected)} ${verb(h.unprotected, 'is', 'are')} unprotected: a retry may repeat the effect.${split}`,
  ];
}

/** A wrapped line may begin with `::`, so each goes through noCommandLines. */
export function wrap(text: string, width: number): string[] {
  return wrapTo(text, width).map((line) => noCommandLines(line));
}

export const tableReporter = wholeStreamReporter((report, out, options = {}) => {
  const width = options.width ?? Infinity;
  const { head, summary } = report;
  const folded = report.fold(tableFold);
  const { lines } = tableOf(folded.rows, summary, width);
  if (head.skipped?.length) lines.push('');
  for (const k of head.skipped ?? [])
    lines.push(
      ...failureWrap(`skipped ${cellText(k.name, 80)}: ${cellText(k.reason, 300)}`, width, '', '    ', SKIPPED_LINES),
    );
  if (head.options.interrupted) {
    const o = head.options;
    lines.push(
      `interrupted: ${o.scanned ?? summary.servers} of ${plural(o.targets ?? summary.servers, 'server')} scanned`,
    );
  }
  lines.push('', ...headlineLines(report).flatMap((l) => wrap(l, width)));
  const answers = answerLines(folded.answers, width);
  if (answers.length > 0) lines.push('', ...answers);
  const worst = unprotectedLines(folded.worst, width, options.toolsCommand);
  if (worst.length > 0) lines.push('', ...worst);
  out(lines.join('\n') + '\n');
});
