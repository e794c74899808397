import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackages, installScriptSpecs, defaultCacheDir } from '../targets/npm.js';
import { ENV_NAME } from '../targets/expand.js';
import { parseShard, selectShard, type Shard } from '../targets/shard.js';
import type { Target } from '../targets/types.js';
import { reporter, REPORTERS } from '../report/reporters/index.js';
import type { Report } from '../report/schema.js';
import type { SarifUris } from '../report/reporters/types.js';
import { scan, type ScanOptions } from '../scan.js';
import { safeText } from '../report/terminal.js';
import { EXIT, UsageError } from './exit.js';
import { urlScheme } from './options.js';
import type { FailOn } from './fail-on.js';
import { addDiscovered } from './where-command.js';
import { oauthScanOptions, type OAuthFlags } from './auth-command.js';
import { checkOutputDir, checkOutputFile, codeOf, writeFallback, writeOutputFile } from './output.js';
import { EXIT_INTERRUPTED, unscannedText, watchSignals } from './signals.js';
import { InstallProgress, ScanProgress } from './progress.js';
import { htmlHint, nameFromServerInfo, printResult, sandboxLines, wroteLine } from './print-scan.js';

// What only some runs need is imported when they need it (target files, profiles, --fail-on, lock
// files): each brings zod schemas, built at import, that `audit` of one server does without.

export const DEFAULT_TARGETS = fileURLToPath(new URL('../../targets/reference.json', import.meta.url));

export interface ScanFlags extends OAuthFlags {
  json?: string;
  out: string;
  /** Parsed and checked by main.ts (listOption): file formats only. */
  format: string[];
  /** Absent for audit (one server). */
  concurrency?: number;
  timeout: number;
  probeTimeout: number;
  maxPages: number;
  trust?: string[];
  failOn?: string;
  /** `--profile`, repeatable: builtin ids or JSON files, each possibly comma-separated. */
  profile?: string[];
  sandbox?: boolean;
  install: boolean;
  cacheDir?: string;
  quiet?: boolean;
  /** A lock file to compare with (report.drift); `lock` writes one to `lock`. */
  baseline?: string;
  lock?: string;
  rulesBaseUrl?: string;
  /** `--sarif-uri NAME=PATH` or `PATH`, repeatable: checked by cli/sarif-uri.ts before the scan. */
  sarifUri?: string[];
  /** `--allow-env`: the variables target files (and project configs) may expand. */
  allowEnv?: string[];
}

export async function scanCommand(files: string[], flags: ScanFlags & { shard?: string; discover?: boolean; projectConfigs?: boolean }): Promise<void> {
  // --discover alone scans what the clients list; the bundled list only when nothing is named.
  const list = files.length > 0 || flags.discover ? files : [DEFAULT_TARGETS];
  const url = files.find((f) => urlScheme(f) !== undefined);
  if (url !== undefined) throw new UsageError(`"${safeText(url, 200)}" is a URL; scan reads target files (for one server: idemscan audit URL)`);
  let shard: Shard | undefined;
  try {
    shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  } catch (err) {
    throw new UsageError(`--shard: ${(err as Error).message}`);
  }
  if (flags.projectConfigs && !flags.discover) throw new UsageError('--project-configs chooses what --discover scans: give --discover too');
  const prepared = await prepare(flags);
  const allowEnv = checkAllowEnv(flags.allowEnv);
  let loaded = await loadOrUsage(list, allowEnv);
  if (flags.discover) loaded = await addDiscovered(loaded, { quiet: flags.quiet, projectConfigs: flags.projectConfigs, allowEnv });
  // A source may be a file name from a cloned repository (.continue/mcpServers/*.yaml): escaped too.
  for (const s of loaded.skipped) process.stderr.write(`idemscan: skipped ${safeText(s.name, 80)} (${safeText(s.source, 300)}): ${safeText(s.reason, 400)}\n`);
  // A shard may be empty (more shards than servers): that is an empty report, not an error.
  await run(prepared, shard ? selectShard(loaded.targets, shard) : loaded.targets, flags, 'table', loaded.skipped, { shard });
}

/** `--allow-env` names, each a variable name (a typo would silently allow nothing). */
function checkAllowEnv(names: string[] = []): string[] {
  for (const n of names) if (!ENV_NAME.test(n)) throw new UsageError(`--allow-env "${safeText(n, 80)}": not an environment variable name`);
  return names;
}

/**
 * A target file that cannot be read is a usage error (exit 2), named in the message. Its `${VAR}`
 * read only the `--allow-env` variables: a list from a registry, a pull request or a colleague
 * does not choose which of this machine's secrets go into a command line, a header or a URL.
 */
async function loadOrUsage(files: string[], allowEnv: string[]) {
  const [{ loadTargetFiles }, { TargetFileError }, { allowedEnv }] = await Promise.all([
    import('../targets/load.js'),
    import('../targets/types.js'),
    import('../targets/expand.js'),
  ]);
  try {
    return await loadTargetFiles(files, allowedEnv(process.env, allowEnv));
  } catch (err) {
    if (err instanceof TargetFileError) throw new UsageError(err.message);
    throw err;
  }
}

/** `--profile`: none loads nothing (profiles are zod-validated files). */
async function loadProfilesOrUsage(names: string[]) {
  if (names.length === 0) return [];
  const { loadProfiles, ProfileError } = await import('../classify/profiles/index.js');
  return loadProfiles(names).catch((err: unknown) => {
    throw err instanceof ProfileError ? new UsageError(err.message) : err;
  });
}

export interface AuditFlags extends ScanFlags {
  header?: string[];
  env?: string[];
  sse?: boolean;
  name?: string;
}

export async function auditCommand(words: string[], flags: AuditFlags): Promise<void> {
  const target = auditTarget(words, flags);
  // The URL given here is the one server --client-id is for.
  await run(await prepare(flags), [target], flags, 'tools', [], { nameFromServerInfo: flags.name === undefined, named: target.url });
}

function auditTarget(words: string[], flags: AuditFlags): Target {
  const [first, ...rest] = words;
  if (!first) throw new UsageError('audit needs a command (after --) or a URL');
  const scheme = urlScheme(first);
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    // Not a command to spawn: a URL idemscan cannot connect to (ftp://, file://, ws://).
    throw new UsageError(`"${safeText(first, 200)}": not an http(s) URL (${scheme}:); audit takes an http(s) URL, or a command after --`);
  }
  if (scheme !== undefined) {
    if (!URL.canParse(first)) throw new UsageError(`"${safeText(first, 200)}" is not a URL`);
    if (rest.length > 0) throw new UsageError('a URL target takes no further arguments');
    return {
      name: flags.name ?? new URL(first).host,
      source: 'command line',
      transport: flags.sse ? 'sse' : 'http',
      url: first,
      headers: pairs(flags.header ?? [], ':', '--header'),
    };
  }
  return {
    name: flags.name ?? path.basename(first),
    source: 'command line',
    transport: 'stdio',
    command: first,
    args: rest,
    env: pairs(flags.env ?? [], '=', '--env'),
  };
}

function pairs(items: string[], sep: string, flag: string): Record<string, string> {
  return Object.fromEntries(
    items.map((item) => {
      const at = item.indexOf(sep);
      if (at <= 0) throw new UsageError(`${flag} "${item}": expected NAME${sep}value`);
      return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    }),
  );
}

/**
 * The flags that are checked without touching anything, before any target file is read: a
 * mistyped --fail-on word must not first read the bundled list and print its skipped entries.
 */
async function prepare(flags: ScanFlags) {
  const profiles = await loadProfilesOrUsage(flags.profile ?? []); // bad profile files are usage errors before the scan
  const failOn = flags.failOn === undefined ? undefined : (await import('./fail-on.js')).parseFailOn(flags.failOn, profiles.map((p) => p.profile)); // and unknown --fail-on words
  const sarifUris = await sarifUrisOrUsage(flags.sarifUri); // and --sarif-uri paths outside the repository
  return { profiles, failOn, sarifUris };
}

async function run(
  prepared: Awaited<ReturnType<typeof prepare>>,
  targets: Target[],
  flags: ScanFlags,
  view: 'table' | 'tools',
  skipped: ScanOptions['skipped'],
  extra: Pick<ScanOptions, 'shard'> & { nameFromServerInfo?: boolean; named?: string } = {},
): Promise<void> {
  if (targets.length === 0 && !extra.shard) throw new UsageError('no targets to scan');
  const formats = flags.format;
  const { profiles, failOn, sarifUris } = prepared;
  await checkOutputs(flags, formats); // output paths that cannot be written are usage errors before the scan
  const lockFiles = flags.baseline !== undefined || flags.lock !== undefined || flags.rulesBaseUrl !== undefined || failOn?.drift ? await import('./lock-command.js') : undefined;
  const baseline = await lockFiles?.prepareBaseline(flags, failOn); // and lock files that cannot be read or written
  const oauth = oauthScanOptions(flags, extra.named); // and a --client-secret-env variable that is not set
  const progress = new ScanProgress(process.stderr, flags.quiet);
  const interrupt = watchSignals();
  const scanned = await scan(targets, {
    concurrency: flags.concurrency ?? 1,
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    maxPages: flags.maxPages,
    trust: flags.trust,
    trustServerInfo: extra.nameFromServerInfo,
    profiles,
    sandbox: flags.sandbox,
    install: flags.install,
    cacheDir: flags.cacheDir,
    oauth,
    skipped,
    shard: extra.shard,
    signal: interrupt.signal,
    onProgress: progress.onEvent,
  });
  progress.stop();
  let report = await interrupt.settle(scanned, targets.length);
  if (extra.nameFromServerInfo) report = nameFromServerInfo(report);
  const unscanned = interrupt.interrupted ? unscannedText(progress.unscanned(targets), targets.length) : undefined;
  if (unscanned) process.stderr.write(`idemscan: ${unscanned}\n`);
  if (baseline) lockFiles!.applyBaseline(report, baseline, flags);

  let written = await writeOutputs(report, flags, formats, sarifUris, flags.lock !== undefined ? 'lock' : view === 'tools' ? 'audit' : 'scan');
  if (flags.lock !== undefined && !interrupt.interrupted) written = (await lockFiles!.writeLock(report, flags.lock, flags.quiet)) && written;
  const reportFile = flags.json && flags.json !== '-' ? flags.json : formats.includes('json') ? path.join(flags.out, REPORTERS.json!.fileName!) : undefined;
  await printResult(report, view, { quiet: flags.quiet, jsonToStdout: flags.json === '-', rulesBaseUrl: flags.rulesBaseUrl, reportFile });
  if (!flags.quiet) process.stderr.write(sandboxLines(report, process.getuid?.() === 0).join(''));
  const code = interrupt.interrupted ? EXIT_INTERRUPTED : await exitCode(report, failOn);
  process.exitCode = written || code === EXIT_INTERRUPTED ? code : EXIT.outputFailed;
}

/** `--out` and `--json` before the scan: a path that cannot be written is a usage error, not a lost scan. */
async function checkOutputs(flags: ScanFlags, formats: string[]): Promise<void> {
  await checkOutputDir('--out', flags.out, formats.map((f) => REPORTERS[f]!.fileName!));
  if (flags.json && flags.json !== '-') await checkOutputFile('--json', flags.json);
}

/**
 * Writes every report file. One that cannot be written after all (its directory changed during the
 * scan) is saved to a fallback file, named on stderr: the scan is never lost. False if any failed.
 */
async function writeOutputs(report: Report, flags: ScanFlags, formats: string[], sarifUris: SarifUris | undefined, command: 'scan' | 'audit' | 'lock'): Promise<boolean> {
  const files = formats.filter((f) => REPORTERS[f]?.fileName).map((id) => ({ dest: path.join(flags.out, REPORTERS[id]!.fileName!), id }));
  if (flags.json && flags.json !== '-') files.push({ dest: flags.json, id: 'json' });
  if (sarifUris) await warnSarifUris(sarifUris, report, formats);
  let ok = true;
  const written: typeof files = [];
  for (const { dest, id } of files) {
    const data = (await reporter(id)).render(report, { rulesBaseUrl: flags.rulesBaseUrl, sarifUris });
    try {
      await writeOutputFile(dest, data);
      written.push({ dest, id });
      if (!flags.quiet) process.stderr.write(wroteLine(dest));
    } catch (err) {
      ok = false;
      const saved = await writeFallback(path.basename(dest), data).catch(() => undefined);
      process.stderr.write(`idemscan: cannot write ${safeText(dest, 300)} (${codeOf(err)}); ${saved ? `the report is saved in ${saved}` : 'no fallback file could be written either'}\n`);
    }
  }
  const hint = htmlHint(written, command);
  if (hint && !flags.quiet) process.stderr.write(hint);
  if (flags.json === '-') process.stdout.write((await reporter('json')).render(report));
  return ok;
}

/** `--sarif-uri`: none loads nothing; a path outside the repository is a usage error. */
async function sarifUrisOrUsage(values: string[] | undefined): Promise<SarifUris | undefined> {
  if (!values?.length) return undefined;
  return (await import('./sarif-uri.js')).parseSarifUris(values);
}

/** A mapped name no server has, or a path that is no file here: most likely a typo, so said on stderr. */
async function warnSarifUris(uris: SarifUris, report: Report, formats: string[]): Promise<void> {
  const { sarifUriWarnings } = await import('./sarif-uri.js');
  for (const w of sarifUriWarnings(uris, report.servers.map((s) => s.name), formats)) process.stderr.write(`idemscan: warning: ${w}\n`);
}

async function exitCode(report: Report, failOn: FailOn | undefined): Promise<number> {
  if (report.summary.servers > 0 && report.summary.serversOk === 0) return EXIT.allFailed;
  if (!failOn) return EXIT.ok;
  const { failOnMatches, failOnText } = await import('./fail-on.js');
  const matched = failOnMatches(report, failOn);
  if (matched.length === 0) return EXIT.ok;
  process.stderr.write(failOnText(matched));
  return EXIT.failOn;
}

export async function installCommand(files: string[], flags: { concurrency: number; cacheDir?: string; allowEnv?: string[] }): Promise<void> {
  const loaded = await loadOrUsage(files, checkAllowEnv(flags.allowEnv));
  for (const s of loaded.skipped) process.stderr.write(`idemscan: skipped ${safeText(s.name, 80)} (${s.source}): ${safeText(s.reason, 400)}\n`);
  // `npx -y pkg` entries too, each unpinned one at the version a scan would resolve now.
  const { npmLaunchTargets, resolveUnpinned, withResolved } = await import('../targets/npm-launch.js');
  const launched = npmLaunchTargets(loaded.targets);
  const cacheDir = flags.cacheDir ?? defaultCacheDir();
  const resolution = await resolveUnpinned(launched, true, cacheDir);
  for (const [spec, error] of resolution.errors) process.stderr.write(`idemscan: ${safeText(spec, 300)}: ${safeText(error, 600)}\n`);
  const targets = withResolved(launched, resolution);
  const specs = targets.filter((t) => t.npm && !resolution.errors.has(t.npm)).map((t) => t.npm!);
  // Each package as it finishes on stdout; on a terminal a bar with counts on stderr.
  const progress = new InstallProgress(new Set(specs).size, process.stdout, process.stderr);
  const results = await installPackages(specs, cacheDir, flags.concurrency, installScriptSpecs(targets), undefined, (r) => {
    progress.onInstalled(r);
    if (r.note) progress.message(`idemscan: ${r.note}`);
    if (!r.ok) progress.message(r.error ?? '');
  });
  progress.stop();
  process.stdout.write(`${results.filter((r) => r.ok).length}/${results.length} packages in ${cacheDir}\n`);
  if (results.some((r) => !r.ok) || resolution.errors.size > 0) process.exitCode = EXIT.allFailed;
}
