/** Computed once and stored as `comparedWith`, so every reporter shows the same trend. */
import path from 'node:path';
import type { ComparedWith, Report } from '../model/schema.js';
import { summarize } from '../model/summary.js';
import type { Change } from '../model/diff.js';
import { diffReports } from './diff.js';
import { listOf } from './run-list.js';

/** `currentFile` names the new side; `earlier.run` names the earlier one when it is a run of an index. */
export function compareWith(
  current: Report,
  earlier: { file: string; report: Report; run?: string },
  currentFile?: string,
): ComparedWith {
  const oldNames = new Set(earlier.report.servers.map((s) => s.name));
  const newNames = new Set(current.servers.map((s) => s.name));
  const both = (r: Report): Report => {
    const servers = r.servers.filter((s) => oldNames.has(s.name) && newNames.has(s.name));
    // Recounted over the common servers, so the diff's summary table compares like with like.
    return { ...r, servers, summary: summarize(servers) };
  };
  const oldSide = both(earlier.report);
  const file = path.basename(earlier.file);
  return {
    file,
    ...(earlier.run === undefined ? {} : { run: earlier.run, path: `${earlier.run}/${file}` }),
    startedAt: earlier.report.startedAt,
    serversInBoth: oldSide.servers.length,
    onlyOld: [...oldNames].filter((n) => !newNames.has(n)).length,
    onlyNew: [...newNames].filter((n) => !oldNames.has(n)).length,
    diff: diffReports(
      { report: oldSide, file },
      { report: both(current), ...(currentFile === undefined ? {} : { file: path.basename(currentFile) }) },
    ),
    ...(listOf(earlier.report).hash === listOf(current).hash ? {} : { differentList: true }),
  };
}

/** What the trend section says when the two reports cover different lists; undefined when they do not. */
export function listWords(c: Pick<ComparedWith, 'differentList'>): string | undefined {
  return c.differentList ? 'The two runs cover different lists: only the servers in both are compared.' : undefined;
}

/** The one place the earlier report's words are made; raw text, each reporter escapes it. */
export function earlierName(c: Pick<ComparedWith, 'file' | 'run' | 'path'>): { what: string; file: string } {
  return c.run === undefined
    ? { what: 'the report', file: c.file }
    : { what: `the ${c.run} run`, file: c.path ?? c.file };
}

/** Tool-level changes: what "tools or hints changed" means for a server. */
const TOOL_KINDS = new Set<Change['kind']>([
  'tool-added',
  'tool-removed',
  'verdict-changed',
  'annotation-changed',
  'key-argument-added',
  'key-argument-removed',
  'key-argument-changed',
  'definition-changed',
]);

const KEYED = new Set(['keyed', 'protocol-keyed']);

export interface TrendHighlights {
  /** Servers with at least one tool-level change, and how many changes each. */
  changedServers: { server: string; changes: number; worse: number }[];
  /** Hints given before and absent now, or that now let a client assume less (direction worse). */
  hintsWeakened: Extract<Change, { kind: 'annotation-changed' }>[];
  /** Tools that are keyed now and were not: added with a key, or whose verdict became keyed. */
  newKeyed: Change[];
}

/** The three lists the trend section leads with, read from the stored diff (never recomputed). */
export function trendHighlights(c: ComparedWith): TrendHighlights {
  const perServer = new Map<string, { server: string; changes: number; worse: number }>();
  const hintsWeakened: TrendHighlights['hintsWeakened'] = [];
  const newKeyed: Change[] = [];
  for (const ch of c.diff.changes) {
    if (!TOOL_KINDS.has(ch.kind)) continue;
    const entry = perServer.get(ch.server) ?? { server: ch.server, changes: 0, worse: 0 };
    entry.changes++;
    if (ch.direction === 'worse') entry.worse++;
    perServer.set(ch.server, entry);
    if (
      ch.kind === 'annotation-changed' &&
      (ch.direction === 'worse' || (ch.from !== undefined && ch.to === undefined))
    )
      hintsWeakened.push(ch);
    if (
      (ch.kind === 'tool-added' && KEYED.has(ch.verdict)) ||
      (ch.kind === 'verdict-changed' && KEYED.has(ch.to) && !KEYED.has(ch.from))
    )
      newKeyed.push(ch);
  }
  return { changedServers: [...perServer.values()], hintsWeakened, newKeyed };
}
