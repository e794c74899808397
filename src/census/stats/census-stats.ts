/** Every figure counts what the report already judged: nothing is classified again. */
import path from 'node:path';
import { summarize } from '../../model/summary.js';
import { HINT_NAMES, isAnnotated, type HintName } from '../../model/verdicts.js';
import { RULE } from '../../model/catalogue.js';
import type { Report, ServerReport, ToolReport } from '../../model/schema.js';
import type { CensusStats, HintCount, PopulationId, SizeBand, StatsGroup } from './census-stats-schema.js';
import { populationSentence, populationsOf, populationWords } from './population.js';
import { STATS_METHOD } from './census-stats-method.js';
import { skipGroup } from './skip-groups.js';

const BANDS: [string, number, number][] = [
  ['no tools', 0, 0],
  ['1 tool', 1, 1],
  ['2-5 tools', 2, 5],
  ['6-10 tools', 6, 10],
  ['11-20 tools', 11, 20],
  ['21-50 tools', 21, 50],
  ['51+ tools', 51, Infinity],
];

/** The statistics of the saved report at `file` (read bounded and validated, as every saved report is). */
export async function censusStatsOf(file: string, top: number): Promise<CensusStats> {
  const { readReportFile } = await import('../../compare/read.js');
  return censusStats((await readReportFile(file)).report, file, top);
}

export function censusStats(report: Report, file: string, top: number): CensusStats {
  const parts = populationsOf(report.servers);
  const skipped = report.skipped?.length ?? 0;
  return {
    report: {
      file: path.basename(file),
      startedAt: report.startedAt,
      tool: `${report.tool.name} ${report.tool.version}`,
    },
    method: STATS_METHOD,
    population: {
      entries: report.servers.length + skipped,
      skipped,
      label: populationSentence(
        parts.map((p) => p.population),
        skipped,
      ),
      parts: parts.map((p) => p.population),
    },
    groups: groups(parts, top),
    failed: tally(report.servers.filter((s) => s.status === 'failed').map((s) => s.failure?.kind ?? 'unknown')),
    skipped: tally((report.skipped ?? []).map((s) => skipGroup(s.reason))),
  };
}

type Part = ReturnType<typeof populationsOf>[number];

const okOf = (p: Part) => p.servers.filter((s) => s.status === 'ok');

/** `all` keeps its meaning (every scanned-ok server); a mixed report adds a group per population beside it. */
function groups(parts: Part[], top: number): StatsGroup[] {
  const all = parts.flatMap(okOf);
  const only = parts.length === 1 ? parts[0] : undefined;
  const title = only
    ? `all ${populationWords(only.population, all.length)}, scanned ok`
    : `all ${all.length} servers scanned ok${parts.length > 1 ? `, ${parts.length} populations pooled` : ''}`;
  const list = [group('all', title, ids(parts), all)];
  // Downloads are a package registry's figure, so the most downloaded are taken among stdio packages.
  const base = only ?? parts.find((p) => p.population.id === 'stdio');
  for (const p of parts) {
    const ok = okOf(p);
    const words = populationWords(p.population, ok.length);
    if (!only) list.push(group(p.population.id, `${words}, scanned ok`, ids([p]), ok));
    if (p === base && top > 0 && top < ok.length)
      list.push(group(`top ${top}`, `the ${top} most downloaded of the ${words}`, ids([p]), mostDownloaded(ok, top)));
  }
  return list;
}

const ids = (parts: Part[]) => parts.map((p) => p.population.id);

function mostDownloaded(servers: ServerReport[], top: number): ServerReport[] {
  return [...servers]
    .sort((a, b) => (b.target.downloads ?? 0) - (a.target.downloads ?? 0) || byCodePoint(a.name, b.name))
    .slice(0, top);
}

function group(id: string, title: string, population: PopulationId[], servers: ServerReport[]): StatsGroup {
  const tools = servers.flatMap((s) => s.tools);
  return {
    id,
    title,
    population,
    summary: summarize(servers),
    hints: Object.fromEntries(HINT_NAMES.map((h) => [h, hintCount(tools, h)])) as StatsGroup['hints'],
    titled: tools.filter((t) => typeof t.annotations?.title === 'string' || typeof t.title === 'string').length,
    idempotencyCapability: servers.filter((s) => s.idempotencyCapability).length,
    keyNames: keyNames(servers),
    contradictions: contradictions(servers),
    bySize: BANDS.map(([band, low, high]) =>
      sizeBand(
        band,
        servers.filter((s) => s.tools.length >= low && s.tools.length <= high),
      ),
    ),
  };
}

function hintCount(tools: ToolReport[], hint: HintName): HintCount {
  const count: HintCount = { given: 0, true: 0, false: 0, malformed: 0 };
  for (const t of tools) {
    if (!t.annotations || !Object.hasOwn(t.annotations, hint)) continue;
    const v = t.annotations[hint];
    if (typeof v !== 'boolean') count.malformed += 1;
    else {
      count.given += 1;
      count[v ? 'true' : 'false'] += 1;
    }
  }
  return count;
}

/** Tools counted under a label each, with the servers they belong to. */
class ToolTally {
  private readonly byLabel = new Map<string, { tools: number; servers: Set<string> }>();

  add(label: string, server: string): void {
    const entry = this.byLabel.get(label) ?? { tools: 0, servers: new Set<string>() };
    entry.tools += 1;
    entry.servers.add(server);
    this.byLabel.set(label, entry);
  }

  /** Most tools first, ties by label, so that the file reads the same every run. */
  rows(): { label: string; tools: number; servers: number }[] {
    return [...this.byLabel]
      .map(([label, e]) => ({ label, tools: e.tools, servers: e.servers.size }))
      .sort((a, b) => b.tools - a.tools || byCodePoint(a.label, b.label));
  }
}

/** Keyed tools (verdict `keyed`) by the name of each strong key argument they take. */
function keyNames(servers: ServerReport[]): StatsGroup['keyNames'] {
  const tally = new ToolTally();
  for (const s of servers)
    for (const t of s.tools.filter((x) => x.verdict === 'keyed'))
      for (const name of new Set(t.keyArguments.filter((k) => k.confidence === 'strong').map((k) => k.name)))
        tally.add(name, s.name);
  return tally.rows().map(({ label, ...counts }) => ({ name: label, ...counts }));
}

/** The contradictory-hints findings, by the annotation each names beside readOnlyHint: true. */
function contradictions(servers: ServerReport[]): StatsGroup['contradictions'] {
  const tally = new ToolTally();
  for (const s of servers)
    for (const t of s.tools)
      for (const f of t.findings.filter((x) => x.rule === RULE.contradictoryHints)) {
        const hint = (f.evidence ?? '').replace(/^annotations\./, '');
        tally.add(`readOnlyHint: true + ${hint}: ${JSON.stringify(t.annotations?.[hint])}`, s.name);
      }
  return tally.rows().map(({ label, ...counts }) => ({ combination: label, ...counts }));
}

function sizeBand(band: string, servers: ServerReport[]): SizeBand {
  const tools = servers.flatMap((s) => s.tools);
  return {
    band,
    servers: servers.length,
    tools: tools.length,
    annotatedTools: tools.filter((t) => isAnnotated(t.annotations)).length,
    unprotectedTools: tools.filter((t) => t.verdict === 'unprotected').length,
    serversAllAnnotated: servers.filter((s) => s.tools.length > 0 && s.tools.every((t) => isAnnotated(t.annotations)))
      .length,
    serversWithUnprotected: servers.filter((s) => s.tools.some((t) => t.verdict === 'unprotected')).length,
  };
}

/** How often each word occurs, most frequent first (ties by the word), so that the file reads the same every run. */
function tally(words: string[]): Record<string, number> {
  const out = new Map<string, number>();
  for (const w of words) out.set(w, (out.get(w) ?? 0) + 1);
  return Object.fromEntries([...out].sort((a, b) => b[1] - a[1] || byCodePoint(a[0], b[0])));
}

/** Locale-free order: the same on every machine. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
