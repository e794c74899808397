import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacheDir } from '../model/cache-dir.js';
import { TOOL_VERSION } from '../model/version.js';
import { ENV_NAME } from '../targets/expand.js';
import { parseShard, selectShard } from '../targets/shard.js';
import type { SkippedTarget, Target } from '../targets/types.js';
import { REPORTERS } from '../render/index.js';
import type { Report, Summary } from '../model/schema.js';
import { streamOf, wholeReport, type ReportStream } from '../model/report-head.js';
import { scan, scanInto, type ScanOptions } from '../scan.js';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import { EXIT } from './exit.js';
import { lines, note, tell } from './say.js';
import { urlScheme } from './options.js';
import type { FailOn } from './fail-on.js';
import { addDiscovered } from './discovered.js';
import { oauthScanOptions } from './oauth-flags.js';
import type { AuditFlags, ScanFlags } from './flags.js';
import { auditTarget } from './audit-target.js';
import { checkOutputs, writeOutputs } from './write-reports.js';
import { unscannedText, watchSignals } from './signals.js';
import { ScanProgress } from './progress.js';
import { nameFromServerInfo, printResult, sandboxLines } from './print-scan.js';

// What only some runs need is imported when they need it (target files, profiles, --fail-on, lock
// files): each brings zod schemas, built at import, that `audit` of one server does without.

export const DEFAULT_TARGETS = fileURLToPath(new URL('../../targets/reference.json', import.meta.url));

export async function scanCommand(
  files: string[],
  flags: ScanFlags & { shard?: string; discover?: boolean; projectConfigs?: boolean },
): Promise<void> {
  // --discover alone scans what the clients list; the bundled list only when nothing is named.
  const list = files.length > 0 || flags.discover ? files : [DEFAULT_TARGETS];
  const url = files.find((f) => urlScheme(f) !== undefined);
  if (url !== undefined)
    throw new InputError(
      msg`"${show.url(url)}" is a URL; scan reads target files (for one server: idemscan audit URL)`,
    );
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (flags.projectConfigs && !flags.discover)
    throw new InputError('--project-configs chooses what --discover scans: give --discover too');
  const prepared = await prepare(flags);
  const allowEnv = checkAllowEnv(flags.allowEnv);
  let loaded = await loadTargets(list, allowEnv);
  if (flags.discover) loaded = await addDiscovered(loaded, { projectConfigs: flags.projectConfigs, allowEnv });
  tellSkipped(loaded.skipped);
  // A shard may be empty (more shards than servers): that is an empty report, not an error.
  await run(prepared, shard ? selectShard(loaded.targets, shard) : loaded.targets, flags, 'table', loaded.skipped, {
    shard,
  });
}

/** `--allow-env` names, each a variable name (a typo would silently allow nothing). */
function checkAllowEnv(names: string[] = []): string[] {
  for (const n of names)
    if (!ENV_NAME.test(n)) throw new InputError(msg`--allow-env "${show.name(n)}": not an environment variable name`);
  return names;
}

/**
 * The targets of the files (a file that cannot be read is a TargetFileError naming it: exit 2).
 * Their `${VAR}` read only the `--allow-env` variables: a list from a registry, a pull request or
 * a colleague does not choose which of this machine's secrets go into a command line, a header or a URL.
 */
async function loadTargets(files: string[], allowEnv: string[]) {
  const [{ loadTargetFiles }, { allowedEnv }] = await Promise.all([
    import('../targets/load.js'),
    import('../targets/expand.js'),
  ]);
  return loadTargetFiles(files, allowedEnv(process.env, allowEnv));
}

/** Entries that cannot be scanned, even with -q; a source may be a file name from a cloned repository. */
function tellSkipped(skipped: readonly SkippedTarget[]): void {
  for (const s of skipped) tell(msg`skipped ${show.name(s.name)} (${show.path(s.source)}): ${show.reason(s.reason)}`);
}

/** `--profile`: none loads nothing (profiles are zod-validated files). */
async function profilesOf(names: string[]) {
  if (names.length === 0) return [];
  return (await import('../classify/profiles/index.js')).loadProfiles(names);
}

export async function auditCommand(words: string[], flags: AuditFlags): Promise<void> {
  const targets =
    flags.tools !== undefined
      ? await (await import('./static-audit.js')).staticTargets(flags.tools, words, flags.name)
      : [auditTarget(words, flags)];
  // The URL given here is the one server --client-id is for.
  await run(await prepare(flags), targets, flags, 'tools', [], {
    nameFromServerInfo: flags.name === undefined && flags.tools === undefined,
    named: targets[0]!.url,
  });
}

/**
 * The flags that are checked without touching anything, before any target file is read: a
 * mistyped --fail-on word must not first read the bundled list and print its skipped entries.
 */
async function prepare(flags: ScanFlags) {
  const profiles = await profilesOf(flags.profile ?? []); // bad profile files are input errors before the scan
  const failOn =
    flags.failOn === undefined
      ? undefined
      : (await import('./fail-on.js')).parseFailOn(
          flags.failOn,
          profiles.map((p) => p.profile),
        ); // and unknown --fail-on words
  const sarifUris = flags.sarifUri?.length // and --sarif-uri paths outside the repository
    ? (await import('./sarif-uri.js')).parseSarifUris(flags.sarifUri)
    : undefined;
  const suppress = await (await import('./suppress-flag.js')).loadSuppress(flags.suppress); // and suppression entries without a reason
  return { profiles, failOn, sarifUris, suppress };
}

async function run(
  prepared: Awaited<ReturnType<typeof prepare>>,
  targets: Target[],
  flags: ScanFlags,
  view: 'table' | 'tools',
  skipped: ScanOptions['skipped'],
  extra: Pick<ScanOptions, 'shard'> & { nameFromServerInfo?: boolean; named?: string } = {},
): Promise<void> {
  if (targets.length === 0 && !extra.shard) throw new InputError('no targets to scan');
  const formats = flags.format;
  const { profiles, failOn, sarifUris, suppress } = prepared;
  await checkOutputs(flags, formats); // output paths that cannot be written are input errors before the scan
  const lockFiles =
    flags.baseline !== undefined || flags.lock !== undefined || flags.rulesBaseUrl !== undefined || failOn?.drift
      ? await import('./baseline.js')
      : undefined;
  const baseline = await lockFiles?.prepareBaseline(flags, failOn); // and lock files that cannot be read or written
  const oauth = oauthScanOptions(flags, extra.named); // and a --client-secret-env variable that is not set
  const progress = new ScanProgress(process.stderr, flags.quiet); // progress lines have their own writer
  const interrupt = watchSignals();
  const options: ScanOptions = {
    concurrency: flags.concurrency ?? 1,
    httpConcurrency: flags.httpConcurrency ?? 1,
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    maxPages: flags.maxPages,
    trust: flags.trust,
    trustServerInfo: extra.nameFromServerInfo,
    profiles,
    sandbox: flags.sandbox,
    install: flags.install,
    cacheDir: flags.cacheDir,
    allowSdist: flags.allowSdist,
    oauth,
    skipped,
    shard: extra.shard,
    signal: interrupt.signal,
    onProgress: progress.onEvent,
  };
  // `scan` spools each server to --out as it finishes (flat memory, --resume); audit and lock keep one report.
  const spooling = view === 'table' && flags.lock === undefined ? await import('./spool-run.js') : undefined;
  const opened = spooling?.openSpool(flags.out, targets, {
    resume: !!flags.resume,
    cacheDir: flags.cacheDir ?? defaultCacheDir(),
    run: {
      tool: TOOL_VERSION,
      trust: flags.trust ?? [],
      sandbox: !!flags.sandbox,
      maxPages: flags.maxPages,
      profiles: flags.profile ?? [],
    },
  });
  spooling?.limitHeapGrowth();
  let stream: ReportStream;
  if (spooling && opened) {
    const run = await scanInto(targets, { ...options, resumed: opened.resumed }, opened.spool);
    stream = spooling.spooledReport(opened, run);
  } else stream = streamOf(await scan(targets, options));
  progress.stop();
  stream = { ...stream, head: await interrupt.settle(stream.head, stream.summary.servers, targets.length) };
  const remaining = opened ? targets.filter((_, i) => !opened.resumed.has(i)) : targets;
  const unscanned = interrupt.interrupted ? unscannedText(progress.unscanned(remaining), targets.length) : undefined;
  if (unscanned) tell(unscanned);
  // What reads the whole report at once gets it in memory; the rest reads the servers one at a time.
  let report: Report | undefined;
  if (extra.nameFromServerInfo || baseline || suppress || failOn || flags.lock !== undefined) {
    report = wholeReport(stream);
    if (extra.nameFromServerInfo) report = nameFromServerInfo(report);
    if (baseline) lockFiles!.applyBaseline(report, baseline, flags);
    if (suppress) await (await import('./suppress-flag.js')).applySuppressFile(report, suppress);
    stream = streamOf(report);
  }

  let written = await writeOutputs(
    stream,
    flags,
    formats,
    sarifUris,
    flags.lock !== undefined ? 'lock' : view === 'tools' ? 'audit' : 'scan',
  );
  if (flags.lock !== undefined && !interrupt.interrupted)
    written = (await lockFiles!.writeLock(report!, flags.lock)) && written;
  const reportFile =
    flags.json && flags.json !== '-'
      ? flags.json
      : formats.includes('json')
        ? path.join(flags.out, REPORTERS.json!.fileName!)
        : undefined;
  await printResult(stream, view, {
    quiet: flags.quiet,
    jsonToStdout: flags.json === '-',
    rulesBaseUrl: flags.rulesBaseUrl,
    reportFile,
  });
  for (const line of sandboxLines(stream, process.getuid?.() === 0)) note(line);
  if (opened) spooling!.closeSpool(opened, written && !interrupt.interrupted);
  const code = interrupt.interrupted ? EXIT.interrupted : await exitCode(stream.summary, report, failOn);
  process.exitCode = written || code === EXIT.interrupted ? code : EXIT.outputFailed;
}

/** From the summary; `--fail-on` reads the whole report (run() has it in memory then). */
async function exitCode(summary: Summary, report: Report | undefined, failOn: FailOn | undefined): Promise<number> {
  if (summary.servers > 0 && summary.serversOk === 0) return EXIT.allFailed;
  if (!failOn || !report) return EXIT.ok;
  const { failOnMatches, failOnText } = await import('./fail-on.js');
  const matched = failOnMatches(report, failOn);
  if (matched.length === 0) return EXIT.ok;
  lines(failOnText(matched), true);
  return EXIT.failOn;
}
