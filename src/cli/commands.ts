import { fileURLToPath } from 'node:url';
import { defaultCacheDir } from '../model/cache-dir.js';
import { TOOL_VERSION } from '../model/version.js';
import { loadTargets } from '../app/load-targets.js';
import { parseShard, selectShard } from '../targets/shard.js';
import type { SkippedTarget, Target } from '../targets/types.js';
import type { ScanOptions } from '../scan.js';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import { failOnText } from '../app/fail-on.js';
import {
  checkScan,
  runScan,
  type ScanEvents,
  type ScanFacts,
  type ScanResult,
  type ScanRunSettings,
} from '../app/scan-run.js';
import { EXIT } from './exit.js';
import { lines, note, tell, warn } from './say.js';
import { urlScheme } from './options.js';
import { addDiscovered } from './discovered.js';
import { oauthScanOptions } from './oauth-flags.js';
import type { AuditFlags, ScanFlags } from './flags.js';
import { auditTarget } from './audit-target.js';
import { unscannedText, watchSignals } from './signals.js';
import { ScanProgress } from './progress.js';
import { printResult, reportFileOf, sandboxLines } from './print-scan.js';

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
  const allowEnv = flags.allowEnv ?? [];
  let loaded = await loadTargets(list, allowEnv);
  if (flags.discover) loaded = await addDiscovered(loaded, { projectConfigs: flags.projectConfigs, allowEnv });
  tellSkipped(loaded.skipped);
  // A shard may be empty (more shards than servers): that is an empty report, not an error.
  const targets = shard ? selectShard(loaded.targets, shard) : loaded.targets;
  await run(prepared, targets, flags, flags.lock === undefined ? 'scan' : 'lock', loaded.skipped, { shard });
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
      ? await (await import('../app/static-audit.js')).staticTargets(flags.tools, words, flags.name)
      : [auditTarget(words, flags)];
  // The URL given here is the one server --client-id is for.
  await run(await prepare(flags), targets, flags, 'audit', [], {
    nameFromServerInfo: flags.name === undefined && flags.tools === undefined,
    named: targets[0]?.kind === 'remote' ? targets[0].url : undefined,
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
    ? (await import('../app/sarif-uri.js')).parseSarifUris(flags.sarifUri)
    : undefined;
  const suppress = await (await import('../app/suppress-file.js')).loadSuppress(flags.suppress); // and suppression entries without a reason
  return { profiles, failOn, sarifUris, suppress };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;
type Extra = Pick<ScanOptions, 'shard'> & { nameFromServerInfo?: boolean; named?: string };

async function run(
  prepared: Prepared,
  targets: Target[],
  flags: ScanFlags,
  writer: ScanRunSettings['writer'],
  skipped: ScanOptions['skipped'],
  extra: Extra = {},
): Promise<void> {
  if (targets.length === 0 && !extra.shard) throw new InputError('no targets to scan');
  const { files, baseline, oauth } = await checkBefore(prepared, flags, writer, extra);
  const progress = new ScanProgress(process.stderr, flags.quiet); // progress lines have their own writer
  const interrupt = watchSignals();
  const { suppress, failOn, sarifUris } = prepared;
  const options = scanOptions(flags, prepared, extra, skipped);
  const result = await runScan(
    {
      targets,
      options: { ...options, oauth, signal: interrupt.signal, onProgress: progress.onEvent },
      writer,
      files,
      render: { rulesBaseUrl: flags.rulesBaseUrl, sarifUris },
      post: { nameFromServerInfo: extra.nameFromServerInfo, suppress, baseline, failOn },
      // `scan` spools each server to --out as it finishes (flat memory, --resume); audit and lock keep one report.
      spool: writer === 'scan' ? spoolSettings(flags) : undefined,
      lock: flags.lock,
      interrupt,
    },
    events(progress, targets.length),
  );
  await showResult(result, flags, writer === 'audit' ? 'tools' : 'table');
  result.close();
  // Read again: a signal that came while the table was printed still decides the exit.
  process.exitCode = exitCode({ ...result.facts, interrupted: interrupt.interrupted });
}

/** The table (audit: the tool view), then which sandbox ran. */
async function showResult(result: ScanResult, flags: ScanFlags, view: 'table' | 'tools'): Promise<void> {
  await printResult(result.report, view, {
    quiet: flags.quiet,
    jsonToStdout: flags.json === '-',
    rulesBaseUrl: flags.rulesBaseUrl,
    reportFile: reportFileOf(flags),
  });
  const sandboxed = result.report.head.options.sandbox === true;
  for (const line of sandboxLines(result.sandbox, sandboxed, process.getuid?.() === 0)) note(line);
}

/** What can be checked before the scan starts, each an input error then rather than a lost scan. */
async function checkBefore(prepared: Prepared, flags: ScanFlags, writer: ScanRunSettings['writer'], extra: Extra) {
  const files = { out: flags.out, formats: flags.format, json: flags.json };
  const baseline = await checkScan(files, { ...flags, drift: prepared.failOn?.drift }, writer === 'scan');
  const oauth = oauthScanOptions(flags, extra.named); // and a --client-secret-env variable that is not set
  return { files, baseline, oauth };
}

/** The scan's options from the flags (the signal, progress and OAuth are the run's). */
function scanOptions(flags: ScanFlags, prepared: Prepared, extra: Extra, skipped: ScanOptions['skipped']): ScanOptions {
  return {
    concurrency: flags.concurrency ?? 1,
    httpConcurrency: flags.httpConcurrency ?? 1,
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    maxPages: flags.maxPages,
    trust: flags.trust,
    trustServerInfo: extra.nameFromServerInfo,
    profiles: prepared.profiles,
    sandbox: flags.sandbox,
    install: flags.install,
    cacheDir: flags.cacheDir,
    allowSdist: flags.allowSdist,
    skipped,
    shard: extra.shard,
  };
}

/** The spool of `scan` under --out, and the options a resumed scan must share with the one it resumes. */
function spoolSettings(flags: ScanFlags): ScanRunSettings['spool'] {
  const run = {
    tool: TOOL_VERSION,
    trust: flags.trust ?? [],
    sandbox: !!flags.sandbox,
    maxPages: flags.maxPages,
    profiles: flags.profile ?? [],
  };
  return { resume: !!flags.resume, cacheDir: flags.cacheDir ?? defaultCacheDir(), run };
}

/** What the run says, on stderr through say.ts; `--json -` on stdout; the progress line gone once the scan is. */
function events(progress: ScanProgress, targets: number): ScanEvents {
  return {
    warn,
    tell,
    note,
    lines,
    print: (text) => void process.stdout.write(text),
    scanned: () => progress.stop(),
    unscanned: (remaining) => {
      const text = unscannedText(progress.unscanned(remaining), targets);
      if (text) tell(text);
    },
  };
}

/** The exit code of the facts, and the --fail-on matches said when they decide it. */
function exitCode(facts: ScanFacts): number {
  let code: number = EXIT.ok;
  if (facts.interrupted) code = EXIT.interrupted;
  else if (facts.allFailed) code = EXIT.allFailed;
  else if (facts.failOn.length > 0) {
    lines(failOnText(facts.failOn), true);
    code = EXIT.failOn;
  }
  return facts.outputsFailed && code !== EXIT.interrupted ? EXIT.outputFailed : code;
}
