/** Generated so no README figure is typed by hand; test/unit/census-block.test.ts checks it. */
import { trendHighlights } from '../../compare/trend.js';
import { mdText } from '../../render/markdown-text.js';
import type { Report, ServerReport, Summary, Verdict, WeightedSummary } from '../../model/schema.js';
import { summarize } from '../../model/summary.js';
import { populationsOf, populationWords } from '../stats/population.js';
import type { Population } from '../stats/census-stats-schema.js';
import { plural, protectedCount, share, summaryCounts } from '../../model/verdicts.js';

export const BLOCK_START = '<!-- census:start -->';
export const BLOCK_END = '<!-- census:end -->';

export interface CensusLinks {
  /** The run directory, relative to the README (`output/ecosystem/2026-11-30`). */
  run: string;
  files: readonly string[];
  /** The index directory, relative to the README (`output/ecosystem`). */
  index: string;
  /** The run the report's trend section compares with, when the index has it. */
  earlier?: { run: string; date: string; differentList?: boolean };
  /** The command that writes this block, named in it. */
  command: string;
}

const n = (x: number) => x.toLocaleString('en-US');
const pct1 = (part: number, whole: number) => (whole > 0 ? `${Math.round((1000 * part) / whole) / 10}%` : '-');
const millions = (x: number) => (x >= 1_000_000 ? `${Math.round(x / 100_000) / 10} million` : n(x));

const FILE_LABELS: readonly [string, string][] = [
  ['report.html', 'HTML'],
  ['report.md', 'Markdown'],
  ['report.json', 'JSON'],
  ['manifest.json', 'the manifest'],
  ['tools.csv', 'CSV'],
  ['tools.ndjson', 'NDJSON'],
];

type Part = { population: Population; words: string; servers: readonly ServerReport[]; summary: Summary };

/** One part per population; a report of one keeps its own summary, so the figures stay the report's. */
function partsOf(report: Report): Part[] {
  const parts = populationsOf(report.servers);
  return parts.map(({ population, servers }) => ({
    population,
    words: population.label,
    servers,
    summary: parts.length === 1 ? report.summary : summarize(servers),
  }));
}

/** The block, markers included, ending in a newline. */
export function censusBlock(report: Report, links: CensusLinks): string {
  const parts = partsOf(report);
  const lines = [
    BLOCK_START,
    `<!-- generated from ${links.run}/report.json by \`${links.command}\`: edit the generator (src/census/publish/census-block.ts), not this block -->`,
    `## Ecosystem census, ${report.startedAt.slice(0, 10)}`,
    '',
    lead(report, links, parts),
    '',
    '| population | servers scanned | tools | not read-only | keyed | protocol-keyed | only `idempotentHint` | unprotected | of them, no hints | annotated | failures |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    ...parts.map(tableRow),
    '',
    ...paragraphs(report, links, parts),
    BLOCK_END,
  ];
  return lines.join('\n') + '\n';
}

/** A paragraph per population; what is not one population's (skips, the trend) closes the last. */
function paragraphs(report: Report, links: CensusLinks, parts: Part[]): string[] {
  const skipped = report.skipped?.length ?? 0;
  const run = [
    skipped
      ? `${plural(skipped, 'list entry', 'list entries')} ${skipped === 1 ? 'was' : 'were'} not scanned, each with its reason in the report.`
      : '',
    trend(report, links),
  ];
  const each = parts.map((p) => verdictSentences(p));
  if (each.length === 0) each.push([]);
  each[each.length - 1]!.push(...run);
  return each.map((sentences) => sentences.filter(Boolean).join(' ')).flatMap((p, i) => (i === 0 ? [p] : ['', p]));
}

/** `829 list entries, 748 of them scanned, all npm packages run on stdio (run under ...): [HTML](...)`. */
function lead(report: Report, links: CensusLinks, parts: Part[]): string {
  const s = report.summary;
  const listed = s.servers + (report.skipped?.length ?? 0);
  const files = FILE_LABELS.filter(([f]) => links.files.includes(f)).map(
    ([f, label]) => `[${label}](${links.run}/${f})`,
  );
  const shards = Array.isArray(report.options.mergedFrom) ? report.options.mergedFrom.length : 0;
  const how = [
    report.options.sandbox === true ? 'run under `--sandbox`' : undefined,
    shards > 1 ? `as ${shards} shards merged` : undefined,
  ].filter(Boolean);
  const who =
    parts.length === 1
      ? `, all ${parts[0]!.words}`
      : parts.length > 1
        ? `: ${parts.map((p) => populationWords(p.population, p.servers.length)).join(' and ')}, each counted apart`
        : '';
  return (
    `[\`${links.run}/\`](${links.run}/) holds the newest run: ${plural(listed, 'list entry', 'list entries')}, ` +
    `${n(s.servers)} of them scanned${who}${how.length ? ` (${how.join(', ')})` : ''}${files.length ? `: ${files.join(', ')}` : ''}. ` +
    `Every run with its figures: [${links.index}/index.html](${links.index}/index.html) ([JSON](${links.index}/index.json)).`
  );
}

function tableRow({ words, summary: s }: Part): string {
  const none = s.unprotectedUndeclared === undefined ? '-' : n(s.unprotectedUndeclared);
  return `| ${words} | ${n(s.serversOk)} | ${n(s.tools)} | ${n(s.notReadOnly)} | ${n(s.keyed)} | ${n(s.protocolKeyed)} | ${n(s.idempotent)} | ${n(s.unprotected)} | ${none} | ${n(s.annotated)} (${share(s.annotated, s.tools)}) | ${n(s.serversFailed)} |`;
}

/** What a client may retry, of one population's tools, its servers named by their population. */
function verdictSentences({ population, words, servers, summary: s }: Part): string[] {
  const safe = protectedCount(summaryCounts(s));
  const on = `on ${populationWords(population, s.serversOk)}`;
  return [
    `Of the ${n(s.notReadOnly)} tools that are not read-only, ${on}, **${n(safe)} (${pct1(safe, s.notReadOnly)}) can be retried safely** by a client${keyedWhere(servers)}.`,
    s.protocolKeyed === 0
      ? 'No server advertises `tools.idempotency`.'
      : `${plural(s.protocolKeyed, 'tool')} are on servers that advertise \`tools.idempotency\`.`,
    `${n(s.idempotent)} more are safe only if you trust their \`idempotentHint\`; ${n(s.unprotected)} may repeat their effect on a retry${undeclared(s)}.`,
    weighted(s, words),
  ];
}

/** ` (3 tools of creem, 1 of lark)`: where the keyed tools are, by server, most first. */
function keyedWhere(servers: readonly ServerReport[]): string {
  const by = servers
    .map((srv) => ({
      name: srv.name,
      k: srv.tools.filter((t) => t.verdict === 'keyed' || t.verdict === 'protocol-keyed').length,
    }))
    .filter((x) => x.k > 0)
    .sort((a, b) => b.k - a.k || (a.name < b.name ? -1 : 1));
  if (by.length === 0) return '';
  const shown = by.slice(0, 5).map((x, i) => `${i === 0 ? plural(x.k, 'tool') : n(x.k)} of ${mdText(x.name, 60)}`);
  return ` (${shown.join(', ')}${by.length > 5 ? `, and ${n(by.length - 5)} more ${by.length - 5 === 1 ? 'server' : 'servers'}` : ''})`;
}

/** `: 40 declare a write and 75 declare no hints at all (...)`, when the report counts them. */
function undeclared(s: Summary): string {
  const none = s.unprotectedUndeclared;
  if (none === undefined || s.unprotected === 0) return '';
  return `: ${n(s.unprotected - none)} declare a write and ${n(none)} declare no hints at all (the spec's defaults make them writes)`;
}

function weighted(s: Summary, words: string): string {
  const w = s.weighted;
  if (!w || w.downloads === 0) return '';
  return (
    `**Weighted by use, ${pct1(w.verdicts.unprotected.downloads, w.downloads)} of the ${millions(w.downloads)} monthly downloads of these ${words} go to servers with at least one unprotected tool**, ` +
    `and ${pct1(protectedCount(downloadsByVerdict(w)), w.downloads)} to servers with a keyed one.`
  );
}

function trend(report: Report, links: CensusLinks): string {
  const c = report.comparedWith;
  if (!c) return '';
  const h = trendHighlights(c);
  const other = links.earlier
    ? `the [${links.earlier.date} run](${links.earlier.run}/)`
    : `the report of ${mdText(c.startedAt.slice(0, 10), 20)}`;
  const what =
    h.changedServers.length === 0
      ? 'show no change'
      : `include ${plural(h.changedServers.length, 'server')} whose tools or hints changed (${plural(h.hintsWeakened.length, 'hint')} removed or weakened, ${plural(h.newKeyed.length, 'new keyed tool')})`;
  const list = links.earlier?.differentList ? ' (a different list: only the servers in both are compared)' : '';
  return `The ${plural(c.serversInBoth, 'server')} also in ${other}${list} ${what}.`;
}

/** The downloads of the servers with a tool of each verdict. */
function downloadsByVerdict(w: WeightedSummary): Record<Verdict, number> {
  return Object.fromEntries(Object.entries(w.verdicts).map(([v, x]) => [v, x.downloads])) as Record<Verdict, number>;
}
