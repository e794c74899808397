/** The library core: never prints, never exits; every server's problem is a value in the report. */
import { DEFAULTS } from '../../model/limits.js';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import pLimit from 'p-limit';
import type { LoadedProfile } from '../../classify/profiles/index.js';
import { EraMemo } from '../../connect/era-memo.js';
import { PendingCloses } from '../../connect/closes.js';
import { DEFAULT_CONNECT_OPTIONS, type ConnectOptions } from '../../connect/observe.js';
import type { OAuthScanOptions } from '../../connect/oauth/server-auth.js';
import { bounded } from '../../model/bounds.js';
import type { Report, ServerReport } from '../../model/schema.js';
import { reportOf, type ReportHead } from '../../model/report-head.js';
import { MemorySink, type ServerSink } from '../../spool/sink.js';
import type { RunSecrets } from '../../redact/run-secrets.js';
import { SCHEMA_VERSION } from '../../model/schema-version.js';
import { checkOptions, checkTargets, checkWritableOption } from './scan-input.js';
import { transportOf } from '../../targets/kind.js';
import { summarize } from '../../model/summary.js';
import { defaultCacheDir } from '../../model/cache-dir.js';
import { prepareTargets, type Prepared } from '../../launch/prepare.js';
import { NameMatcher } from '../../model/server-names.js';
import type { Target, TargetInput } from '../../targets/types.js';
import { TOOL_NAME, TOOL_VERSION } from '../../model/version.js';

import type { InternalScanOptions, ScanOptions } from './scan-options.js';
import { crashed, runSecrets, scanOne, type OneOptions } from './scan-server.js';

export type { ProgressEvent, ScanOptions } from './scan-options.js';

export function scan(listed: readonly TargetInput[], options: ScanOptions = {}): Promise<Report> {
  // What is not published is not honoured either, should a caller from JavaScript pass it.
  const {
    maxFrameBytes: _f,
    stderrTailBytes: _s,
    killGraceMs: _k,
    onObserved: _o,
    ...published
  } = options as InternalScanOptions;
  return scanTuned(listed, published);
}

/** With the options src/index.ts does not publish: the connector's tuning the tests set. */
export async function scanTuned(listed: readonly TargetInput[], options: InternalScanOptions = {}): Promise<Report> {
  const sink = new MemorySink();
  // Malformed input is the caller's mistake, not a server's failure: a ScanInputError, before any work.
  const run = await scanInto(checkTargets(listed), options, sink);
  const servers = sink.servers().map((s) => run.redactLater(s));
  return reportOf(run.head, summarize(servers), servers);
}

export interface ScanRun {
  head: ReportHead;
  /** Redacted with the tokens stored while the pool ran (redact/run-secrets.ts). */
  redactLater(server: ServerReport): ServerReport;
}

/** Each server goes to `sink` as it finishes, so the CLI's spool file keeps memory flat. */
export async function scanInto(
  listed: readonly Target[],
  options: InternalScanOptions,
  sink: ServerSink,
): Promise<ScanRun> {
  const run = await startRun(listed, options);
  const { stdio, http } = run.pools;
  // A stdio server's start-up is CPU; a remote's listing is waiting: one pool each.
  const stdioLimit = pLimit(stdio);
  const httpLimit = pLimit(http);
  const { targets } = run.prepared;
  await Promise.all(
    targets.map((target, index) =>
      (transportOf(target) === 'stdio' ? stdioLimit : httpLimit)(async () => {
        if (run.options.signal?.aborted) return;
        started(run, target, index);
        const server = await scanOne(target, run.connect, run.one).catch((err: unknown) =>
          crashed(target, err, run.secrets),
        );
        kept(run, sink, index, server);
      }),
    ),
  ).finally(() => run.closes.settled());
  await endRun(run, sink);
  return { head: await runHead(run, sink), redactLater: (server) => run.secrets.redactLater(server) };
}

/** What every server of a run shares, set up before the first starts. */
export interface Run {
  listed: readonly Target[];
  options: InternalScanOptions;
  prepared: Prepared;
  /** Where each prepared target sits in `listed` (a resumed scan prepares only the rest). */
  positions: readonly number[];
  pools: { stdio: number; http: number };
  connect: ConnectOptions;
  one: OneOptions;
  secrets: RunSecrets;
  eraMemo: EraMemo;
  closes: PendingCloses;
  cacheDir: string;
  startedAt: Date;
  scanStarted: number;
  done: number;
}

export async function startRun(listed: readonly Target[], given: InternalScanOptions): Promise<Run> {
  checkOptions(given);
  const options = { ...given, writable: checkWritableOption(given, given.cacheDir ?? defaultCacheDir()) };
  const startedAt = new Date();
  if (options.signal) setMaxListeners(0, options.signal); // one abort listener per running server, by design
  const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
  const pools = { stdio: concurrency, http: Math.max(1, options.httpConcurrency ?? DEFAULTS.httpConcurrency) };
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  // Servers a resumed scan already has are not prepared (installed) again; `positions` maps back.
  const positions = listed.map((_, i) => i).filter((i) => !options.resumed?.has(i));
  const fresh = positions.map((i) => listed[i]!);
  const prepared = await prepareTargets(fresh, options, cacheDir, concurrency);
  const scanStarted = performance.now();
  const eraMemo = EraMemo.load(cacheDir);
  const oauth: OAuthScanOptions = { timeoutMs: DEFAULTS.signInTimeoutMs, print: () => {}, ...options.oauth, cacheDir };
  const secrets = await runSecrets(cacheDir, options.oauth, !!options.resumed?.size);
  const trustMatcher = new NameMatcher(options.trust);
  // A trusted name whose server a resumed scan read back did find its server.
  for (const i of options.resumed ?? []) trustMatcher.matches({ target: listed[i]!.name });
  const one = { ...options, cacheDir, installErrors: prepared.installErrors, secrets, trustMatcher };
  // Listed servers end in the background, their slots free at once; none outlives the scan.
  const closes = new PendingCloses();
  const connect = {
    ...DEFAULT_CONNECT_OPTIONS,
    ...definedOnly(options),
    eraMemo,
    signal: options.signal,
    oauth,
    closes,
  };
  const common = { listed, options, prepared, positions, pools, connect, one, secrets, eraMemo, closes, cacheDir };
  return { ...common, startedAt, scanStarted, done: 0 };
}

export function started(run: Run, target: Target, index: number): void {
  run.options.onProgress?.({ type: 'start', target: target.name, index, total: run.prepared.targets.length });
}

export function kept(run: Run, sink: ServerSink, index: number, server: ServerReport): void {
  // Cut short by Ctrl-C is not scanned, not failed; one that finished as the signal came is kept.
  if (run.options.signal?.aborted && server.status === 'failed') return;
  sink.add(run.positions[index]!, server);
  const total = run.prepared.targets.length;
  run.options.onProgress?.({ type: 'done', server, index: run.done++, total, target: index });
}

export async function endRun(run: Run, sink: ServerSink): Promise<void> {
  const { options } = run;
  await run.closes.settled();
  run.eraMemo.save(run.cacheDir);
  await run.secrets.settle();
  // A trusted name that found no server is most often a typo; in a shard the rest are elsewhere.
  const untrusted = options.signal?.aborted || options.shard ? [] : run.one.trustMatcher.unmatched();
  if (untrusted.length > 0)
    options.onProgress?.({ type: 'warning', message: unmatchedTrust(untrusted, sink, !!options.trustServerInfo) });
}

export async function runHead(run: Run, sink: ServerSink): Promise<ReportHead> {
  const { options, connect, listed } = run;
  const { specs, installs } = run.prepared;
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    startedAt: run.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    options: {
      concurrency: run.pools.stdio,
      httpConcurrency: run.pools.http,
      timeoutMs: connect.timeoutMs,
      probeTimeoutMs: connect.probeTimeoutMs,
      maxPages: connect.maxPages,
      sandbox: options.sandbox ?? false,
      ...(options.writable?.length ? { writable: options.writable } : {}),
      trust: options.trust ?? [],
      ...(options.signal?.aborted ? { interrupted: true, scanned: sink.size, targets: listed.length } : {}),
      ...(options.profiles?.length ? { profiles: await profileUses(options.profiles) } : {}),
      ...(options.shard ? { shard: { index: options.shard.index, count: options.shard.count } } : {}),
    },
    // The report's fields only: `unexpanded` is for the messages of the run that read the file.
    skipped: options.skipped?.length
      ? options.skipped.map(({ name, source, reason }) => ({ name, source, reason }))
      : undefined,
    manifest: {
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      packages: [...new Set(specs)].sort(),
      installs: installs.length ? installs.map(({ spec, ok, ms }) => ({ spec, ok, ms })) : undefined,
      scanMs: Math.round(performance.now() - run.scanStarted),
    },
  };
}

/** `trusted name "notse" matches no server scanned (their names: notes, node or legacy-payments)`. */
function unmatchedTrust(names: string[], sink: ServerSink, byServerInfo: boolean): string {
  const nameOf = (s: ServerReport) => {
    const own = byServerInfo ? s.serverInfo?.name?.trim() : undefined;
    return own && own !== s.name ? `${s.name} or ${own}` : s.name;
  };
  const shown: string[] = [];
  for (const s of sink.servers()) {
    if (shown.length === 10) break;
    shown.push(nameOf(s));
  }
  const more = sink.size > shown.length ? `, and ${sink.size - shown.length} more` : '';
  const quoted = names.map((n) => `"${bounded(n, 100)}"`).join(', ');
  const which = names.length === 1 ? `trusted name ${quoted} matches` : `trusted names ${quoted} match`;
  return `${which} no server scanned${sink.size ? ` (their names: ${shown.join(', ')}${more})` : ''}`;
}

function definedOnly(options: InternalScanOptions): Partial<ConnectOptions> {
  const keys = Object.keys(DEFAULT_CONNECT_OPTIONS) as (keyof typeof DEFAULT_CONNECT_OPTIONS &
    keyof InternalScanOptions)[];
  return Object.fromEntries(keys.filter((k) => options[k] !== undefined).map((k) => [k, options[k]]));
}

/** Lazy: the profile schemas are zod, built at import. */
async function profileUses(profiles: LoadedProfile[]): Promise<NonNullable<Report['options']['profiles']>> {
  const { profileUse } = await import('../../classify/profiles/index.js');
  return profiles.map(profileUse);
}
