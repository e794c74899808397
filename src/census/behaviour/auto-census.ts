/**
 * `probe-census --auto`: every server of a target list probed without a plan (`probe --auto`), a
 * few servers at a time, each tool on its own fresh server under bubblewrap. Each server's report
 * is kept in reports/, so a run resumes, shards fill one folder, and the table is remade from all.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Say } from '../../app/say.js';
import { writeReports } from '../../app/write-reports.js';
import { streamOf } from '../../model/report-head.js';
import type { ServerReport } from '../../model/schema.js';
import { bounded } from '../../model/bounds.js';
import { LIMITS } from '../../model/limits.js';
import { readReportFile } from '../../compare/read.js';
import { readBehaviourFile } from '../publish/run-index-behaviour.js';
import type { Target } from '../../targets/types.js';
import { loadTargets } from '../../app/load-targets.js';
import { sandboxSupport } from '../../launch/sandbox.js';
import { InputError } from '../../model/input-error.js';
import { parseShard, selectShard } from '../../targets/shard.js';
import type { BehaviourRow, BehaviourServer, BehaviourTable, Method } from './behaviour.js';
import { behaviourOf, type ServerRun } from './behaviour-rows.js';
import { msg, show } from '../../render/message.js';

/** Beside the plan library's reports/, whose names a census server may share. */
const AUTO_REPORTS_DIR = 'auto-reports';

export interface AutoCensusSettings {
  /** The target file as given: the table's `method.library`. */
  list: string;
  out: string;
  concurrency: number;
  /** Each server's experiments together. */
  budgetMs?: number;
  cacheDir?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type AutoCensusEvent = { type: 'server'; server: BehaviourServer; rows: BehaviourRow[]; reused: boolean };

/** Characters of a server's name kept in its report's file name; a hash of the whole name follows. */
const NAME_CHARS = 80;

/** A file name any server name can have, one per name (`@s/x` and `_s_x` apart). */
const reportName = (name: string) =>
  `${name.replace(/[^\w.-]/g, '_').slice(0, NAME_CHARS)}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}.json`;

const packageOf = (t: Target) =>
  t.kind === 'package'
    ? 'spec' in t.package
      ? t.package.spec
      : 'ref' in t.package
        ? t.package.ref
        : t.package.url
    : t.name;

/** Probes the servers whose report is not in reports/ yet; the parts of every report there after. */
export async function runAutoCensus(
  targets: readonly Target[],
  settings: AutoCensusSettings,
  io: { say: Say; onEvent: (e: AutoCensusEvent) => void },
): Promise<ReturnType<typeof behaviourOf>[]> {
  const dir = path.join(settings.out, AUTO_REPORTS_DIR);
  const have = new Set(await readdir(dir).catch(() => [] as string[]));
  const limit = pLimit(settings.concurrency);
  const crashed: ReturnType<typeof behaviourOf>[] = [];
  await Promise.all(
    targets.map((t) =>
      limit(async () => {
        if (settings.signal?.aborted) return;
        const reused = have.has(reportName(t.name));
        const probed = reused ? undefined : await probeOne(t, settings, io.say);
        if (settings.signal?.aborted) return;
        const run = runOf(t.name, packageOf(t), typeof probed === 'string' ? undefined : probed);
        const part = behaviourOf(typeof probed === 'string' ? { ...run, error: probed, report: undefined } : run);
        if (typeof probed === 'string') crashed.push(part); // no report to read back: kept for this run's table
        io.onEvent({ type: 'server', ...part, reused });
      }),
    ),
  );
  return [...(await partsIn(dir, io.say)), ...crashed];
}

const runOf = (name: string, pkg: string, server: ServerReport | undefined): ServerRun => ({
  method: 'auto',
  name,
  package: pkg,
  planned: [],
  ...(server ? { server } : { error: 'not probed' }),
  report: path.join(AUTO_REPORTS_DIR, reportName(name)),
});

/** `probe --auto` on one server, its report kept; a crash is the server's error (a string), not the run's. */
async function probeOne(t: Target, settings: AutoCensusSettings, say: Say): Promise<ServerReport | string | undefined> {
  const { probeTarget } = await import('../../app/probe/probe.js');
  const options = {
    sandbox: true,
    auto: true,
    autoBudgetMs: settings.budgetMs,
    timeoutMs: settings.timeoutMs,
    cacheDir: settings.cacheDir,
  };
  const result = await probeTarget(t, { tools: {} }, { ...options, signal: settings.signal }).catch(
    (err: unknown) =>
      `idemscan could not probe it: ${bounded(String((err as Error)?.message ?? err), LIMITS.errorChars)}`,
  );
  if (typeof result === 'string') return result;
  if (settings.signal?.aborted) return undefined;
  const file = path.join(settings.out, AUTO_REPORTS_DIR, reportName(t.name));
  const quiet: Say = { ...say, note: () => {}, lines: (text, always) => always && say.lines(text, always) };
  await writeReports(streamOf(result.report), { formats: [], json: file }, 'probe', { print: () => {}, say: quiet });
  return result.report.servers[0];
}

/** Every report in the folder, in name order: a shard's servers and those of the runs before it. */
async function partsIn(dir: string, say: Say): Promise<ReturnType<typeof behaviourOf>[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  const parts: ReturnType<typeof behaviourOf>[] = [];
  for (const name of names) {
    const read = await readReportFile(path.join(dir, name)).catch((err: unknown) => {
      say.warn(
        msg`${show.path(path.join(dir, name))} left out of the table: ${show.message(String((err as Error).message))}`,
      );
      return undefined;
    });
    const server = read?.report.servers[0];
    const pkg = server?.target.npm ?? server?.target.pypi ?? server?.target.oci;
    if (server) parts.push(behaviourOf(runOf(server.name, pkg ?? server.name, server)));
  }
  return parts;
}

/** The servers and rows of the other method in the table already at `file`: a run of one method keeps the other's. */
export async function otherMethodParts(
  file: string,
  mine: Method,
  say: Say,
): Promise<{ parts: ReturnType<typeof behaviourOf>[]; method?: BehaviourTable['method'] }> {
  const read = await readBehaviourFile(file);
  if (read && 'error' in read)
    say.warn(msg`${show.path(read.file)}: ${show.message(read.error)}; its rows are not kept`);
  if (!read || !('table' in read)) return { parts: [] };
  const other = (m: Method | undefined) => (m ?? 'plan') !== mine;
  // A table made before rows said their method holds plan rows only.
  const method = (m: Method | undefined) => m ?? ('plan' as const);
  const parts = read.table.servers
    .filter((s) => other(s.method))
    .map((server) => ({
      server: { ...server, method: method(server.method) },
      rows: read.table.rows
        .filter((r) => other(r.method) && r.server === server.name)
        .map((r) => ({ ...r, method: method(r.method) })),
    }));
  return { parts, method: read.table.method };
}

/** The stdio servers of a target list (a shard of it), checked before anything starts. */
export async function autoCensusTargets(
  file: string,
  shardText: string | undefined,
): Promise<{ targets: Target[]; skipped: number; notStdio: number }> {
  const support = sandboxSupport();
  if (support.mode !== 'bubblewrap')
    throw new InputError(
      `probe-census --auto calls every tool of servers nobody planned for: it runs only under bubblewrap, which does not work here (${support.note ?? support.mode}); nothing was started`,
    );
  const loaded = await loadTargets([file]);
  const shard = shardText === undefined ? undefined : parseShard(shardText);
  const all = shard ? selectShard(loaded.targets, shard) : loaded.targets;
  const targets = all.filter((t) => t.kind === 'command' || t.kind === 'package');
  return { targets, skipped: loaded.skipped.length, notStdio: all.length - targets.length };
}
