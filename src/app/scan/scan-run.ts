/** The use case of `scan`, `audit` and `lock`; never prints: lines go to the caller's `Say`. */
import type { Report } from '../../model/schema.js';
import type { FoldMaker, ReportHead, ReportStream } from '../../model/report-head.js';
import type { Shown } from '../../model/shown.js';
import type { SpoolRun } from '../../model/spool-schema.js';
import type { RenderOptions } from '../../render/types.js';
import { scanInto } from './scan.js';
import type { InternalScanOptions } from './scan-options.js';
import { MemorySink } from '../../spool/sink.js';
import type { Target } from '../../targets/types.js';
import { postProcess, type PostProcessors, type Processed } from './post-process.js';
import type { Say } from '../say.js';
import type { Baseline, LockSettings } from './baseline.js';
import { checkReportFiles, writeReports, type ReportFiles } from '../write-reports.js';
import type { ToolsSaver } from './save-tools.js';

export interface ScanEvents extends Say {
  /** The scan is done (the progress line can go); the reports are next. */
  scanned(): void;
  /** A signal stopped the scan: the targets it had to scan (without those read back by --resume). */
  unscanned(remaining: readonly Target[]): void;
  print(text: string): void;
}

/** The CLI's signal watch (shell/signals.ts): whether a signal came, and the report marked if one did. */
export interface Interruption {
  readonly interrupted: boolean;
  settle<T extends Pick<Report, 'options'>>(report: T, scanned: number, targets: number): Promise<T>;
}

export interface ScanRunSettings {
  targets: Target[];
  /** `onObserved`: what is kept of the live server (`audit --save-tools` keeps what it sent). */
  options: InternalScanOptions;
  writer: 'scan' | 'audit' | 'lock';
  files: ReportFiles;
  render: Pick<RenderOptions, 'rulesBaseUrl' | 'sarifUris'>;
  post: PostProcessors;
  /** `scan`: the servers go to `files.out`'s spool as they finish (app/scan/spool-run.ts). */
  spool?: { resume: boolean; cacheDir: string; run: SpoolRun };
  lock?: string;
  /** `audit --save-tools`: what the server answered, written after the reports. */
  saveTools?: ToolsSaver;
  interrupt: Interruption;
}

/** What decides the exit code; the CLI maps them (shell/exit.ts). */
export interface ScanFacts {
  /** Servers were scanned and none answered. */
  allFailed: boolean;
  failOn: Shown[];
  interrupted: boolean;
  /** A report or the lock could not be written where asked (it went to a fallback file). */
  outputsFailed: boolean;
}

export interface ScanResult {
  /** The report as the reporters read it, for the terminal view: valid until `close()`. */
  report: ReportStream;
  sandbox: Map<string, number>;
  facts: ScanFacts;
  /** After the terminal view: the spool removed (a complete run) or kept and said (an interrupted one). */
  close(): void;
}

interface Source {
  head: ReportHead;
  servers: () => Iterable<ServerReport>;
}
type ServerReport = Report['servers'][number];

/** Heap growth is limited first: a 10,000-server --baseline lock read at the default leaves a heap the scan fills. */
export async function checkScan(
  files: ReportFiles,
  locks: LockSettings & { drift?: boolean },
  limitHeap: boolean,
): Promise<Baseline | undefined> {
  if (limitHeap) (await import('./spool-run.js')).limitHeapGrowth();
  await checkReportFiles(files);
  const { baseline, lock, rulesBaseUrl, drift } = locks;
  if (baseline === undefined && lock === undefined && rulesBaseUrl === undefined && !drift) return undefined;
  return (await import('./baseline.js')).prepareBaseline(locks, drift);
}

export async function runScan(settings: ScanRunSettings, events: ScanEvents): Promise<ScanResult> {
  const { targets, interrupt } = settings;
  const spooling = settings.spool && (await import('./spool-run.js'));
  const spool = settings.spool && { ...settings.spool, shard: settings.options.shard };
  const opened = spooling?.openSpool(settings.files.out!, targets, spool!, events);
  let source: Source;
  if (spooling && opened) {
    const run = await scanInto(targets, { ...settings.options, resumed: opened.resumed }, opened.spool);
    source = spooling.spooledServers(opened, run);
  } else source = await inMemory(targets, settings.options);
  events.scanned();
  const post = { ...settings.post, names: settings.render.sarifUris !== undefined, folds: await laterFolds(settings) };
  const processed = await postProcess(source.head, source.servers, post, (head, scanned) =>
    interrupt.settle(head, scanned, targets.length),
  );
  if (interrupt.interrupted) events.unscanned(opened ? targets.filter((_, i) => !opened.resumed.has(i)) : targets);
  await tellPost(processed, settings, events);
  const written = await writeReports(processed.stream, settings.files, settings.writer, {
    render: settings.render,
    print: events.print,
    say: events,
  });
  let ok = written.ok;
  if (settings.lock !== undefined && !interrupt.interrupted)
    ok = (await (await import('./baseline.js')).writeLock(processed.stream, settings.lock, events)) && ok;
  if (settings.saveTools && !interrupt.interrupted) ok = (await settings.saveTools.write(events)) && ok;
  const { summary } = processed.stream;
  const facts: ScanFacts = {
    allFailed: summary.servers > 0 && summary.serversOk === 0,
    failOn: processed.failOn,
    interrupted: interrupt.interrupted,
    outputsFailed: !ok,
  };
  const close = () => (opened ? spooling!.closeSpool(opened, ok && !interrupt.interrupted, events) : undefined);
  return { report: processed.stream, sandbox: processed.sandbox, facts, close };
}

/** What is read after the reports, run in the scan's first pass instead. */
async function laterFolds(settings: ScanRunSettings): Promise<FoldMaker<unknown>[]> {
  const folds: FoldMaker<unknown>[] = [];
  if (settings.writer !== 'audit') folds.push((await import('../../render/table.js')).tableFold);
  if (settings.lock !== undefined) folds.push((await import('../../compare/lock.js')).lockFold);
  return folds;
}

async function inMemory(targets: Target[], options: InternalScanOptions): Promise<Source> {
  const sink = new MemorySink();
  const run = await scanInto(targets, options, sink);
  const servers = sink.servers().map((s) => run.redactLater(s));
  return { head: run.head, servers: () => servers };
}

async function tellPost(processed: Processed, settings: ScanRunSettings, say: Say): Promise<void> {
  if (processed.drift) (await import('./baseline.js')).tellDrift(processed.drift, say);
  if (processed.suppress)
    (await import('./suppress-file.js')).tellSuppressions(settings.post.suppress!.file, processed.suppress, say);
  const uris = settings.render.sarifUris;
  if (uris) {
    const { sarifUriWarnings } = await import('../sarif-uri.js');
    for (const w of sarifUriWarnings(uris, processed.names, settings.files.formats)) say.warn(w);
  }
}
