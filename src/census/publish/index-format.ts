/** The run index format; anyone who can commit may edit it and its names become links, so every field is checked. */
import { z } from 'zod';
import { RUN_FILES } from '../../model/formats.js';
import type { Report, Summary } from '../../model/schema.js';
import { summarize } from '../../model/summary.js';
import { PopulationId } from '../stats/census-stats-schema.js';
import { populationsOf } from '../stats/population.js';
import { describeZodError } from '../../model/zod-errors.js';
import { compareText } from '../../compare/diff.js';
import { listOf, RunList } from '../../compare/run-list.js';

export const INDEX_VERSION = '1';
export const INDEX_FILE = 'index.json';
export const INDEX_PAGE = 'index.html';

/** Where the index keeps a page per server across runs (run-index-servers.ts): no run may be named so. */
export const SERVERS_DIR = 'servers';
/** Where probe-census publishes the behaviour table beside the runs (run-index-behaviour.ts): no run either. */
export const BEHAVIOUR_DIR = 'behaviour';

/** One safe path segment, as it becomes part of a relative link. */
const RUN_DIR = /^[\w.-]{1,100}$/;
export const isRunDirName = (name: string): boolean =>
  RUN_DIR.test(name) && name !== '.' && name !== '..' && name !== SERVERS_DIR && name !== BEHAVIOUR_DIR;

const count = z.number().int().nonnegative();

const RunSummary = z.object({
  servers: count,
  serversOk: count,
  serversFailed: count,
  tools: count,
  readOnly: count,
  notReadOnly: count,
  annotated: count,
  protocolKeyed: count,
  keyed: count,
  idempotent: count,
  unprotected: count,
  /** Monthly npm downloads of the scanned servers, and of those with at least one unprotected tool. */
  downloads: count.optional(),
  downloadsUnprotected: count.optional(),
});

/** One population of a run (stats/population.ts), with its own figures: a run of stdio packages and remotes has two. */
const RunPopulation = z.object({
  id: PopulationId,
  /** In words, plural: `npm packages run on stdio`. */
  label: z.string().max(200),
  summary: RunSummary,
});

export const RunEntry = z.object({
  /** The run directory, relative to the index (`2026-11-30`). */
  dir: z.string().refine(isRunDirName, `one path segment of letters, digits, _ . -, not "${SERVERS_DIR}"`),
  /** The day the run started (UTC, YYYY-MM-DD). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** As the report has them (ISO 8601, UTC): the index is ordered by startedAt. */
  startedAt: z.iso.datetime().max(40),
  finishedAt: z.iso.datetime().max(40),
  toolVersion: z.string().max(100),
  summary: RunSummary,
  /** Target entries that were not scanned, each with a reason in the report. */
  skipped: count,
  files: z.array(z.enum(RUN_FILES as [string, ...string[]])).max(RUN_FILES.length),
  /** The list the run covers; absent in an index written before it was recorded. */
  list: RunList.optional(),
  /** Whether `list` differs from the run before it (the next entry); absent when either has none. */
  differentList: z.boolean().optional(),
  /** Who the run counted, a population each; absent in an index written before it was recorded. */
  populations: z.array(RunPopulation).max(PopulationId.options.length).optional(),
});
export type RunEntry = z.infer<typeof RunEntry>;

export const RunIndex = z.object({
  indexVersion: z.literal(INDEX_VERSION),
  runs: z.array(RunEntry).max(100_000),
});
export type RunIndex = z.infer<typeof RunIndex>;

export const emptyIndex = (): RunIndex => ({ indexVersion: INDEX_VERSION, runs: [] });

function runSummary(s: Summary): z.infer<typeof RunSummary> {
  return {
    servers: s.servers,
    serversOk: s.serversOk,
    serversFailed: s.serversFailed,
    tools: s.tools,
    readOnly: s.readOnly,
    notReadOnly: s.notReadOnly,
    annotated: s.annotated,
    protocolKeyed: s.protocolKeyed,
    keyed: s.keyed,
    idempotent: s.idempotent,
    unprotected: s.unprotected,
    ...(s.weighted
      ? { downloads: s.weighted.downloads, downloadsUnprotected: s.weighted.verdicts.unprotected.downloads }
      : {}),
  };
}

/** Or why the report cannot have one (a field the index bounds). */
export function runEntry(
  dir: string,
  report: Report,
  files: readonly string[],
): { entry: RunEntry } | { error: string } {
  const parts = populationsOf(report.servers);
  const entry: RunEntry = {
    dir,
    date: report.startedAt.slice(0, 10),
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    toolVersion: report.tool.version,
    summary: runSummary(report.summary),
    skipped: report.skipped?.length ?? 0,
    files: RUN_FILES.filter((f) => files.includes(f)),
    list: listOf(report),
    // A report of one population keeps its own summary, so its row reads as the run's.
    populations: parts.map(({ population, servers }) => ({
      id: population.id,
      label: population.label,
      summary: runSummary(parts.length === 1 ? report.summary : summarize(servers)),
    })),
  };
  const checked = RunEntry.safeParse(entry);
  return checked.success ? { entry: checked.data } : { error: describeZodError('', checked.error) };
}

/** Each run marked with whether it covers a different list than the run before it (the next, older, entry). */
function withListChanges(runs: readonly RunEntry[]): RunEntry[] {
  return runs.map((r, i) => {
    const { differentList: _stale, ...rest } = r;
    const before = runs[i + 1];
    return r.list && before?.list ? { ...rest, differentList: r.list.hash !== before.list.hash } : rest;
  });
}

/** Newest first: by start time (an unreadable one last), then by directory name, both descending. */
export function newestFirst(a: RunEntry, b: RunEntry): number {
  const time = (r: RunEntry) => {
    const t = Date.parse(r.startedAt);
    return Number.isNaN(t) ? -Infinity : t;
  };
  const ta = time(a);
  const tb = time(b);
  if (ta !== tb) return tb > ta ? 1 : -1;
  return compareText(b.dir, a.dir);
}

/** The index with `entry` added, or replacing the entry of the same directory. */
export function withRun(index: RunIndex, entry: RunEntry): RunIndex {
  const runs = [...index.runs.filter((r) => r.dir !== entry.dir), entry].sort(newestFirst);
  return { indexVersion: INDEX_VERSION, runs: withListChanges(runs) };
}

/** The index of these entries (a rebuild), newest first. */
export function indexOf(entries: readonly RunEntry[]): RunIndex {
  // As withRun one entry at a time (a later entry of a directory replaces an earlier one), sorted once.
  const byDir = new Map(entries.map((e) => [e.dir, e]));
  return { indexVersion: INDEX_VERSION, runs: withListChanges([...byDir.values()].sort(newestFirst)) };
}

/** A hand-edited index may be in any order; a merge repeated into `dir` never compares with itself. */
export function runsBefore(index: RunIndex, startedAt: string, dir?: string): RunEntry[] {
  const t = Date.parse(startedAt);
  return index.runs
    .filter((r) => r.dir !== dir && r.files.includes('report.json') && Date.parse(r.startedAt) < t)
    .sort(newestFirst);
}
