/**
 * What `scan`, `audit` and `lock` make of their flags before anything runs: the checks that touch
 * nothing (profiles, --fail-on words, --sarif-uri, suppression entries), the targets (target files,
 * --discover, the shard; audit's one server), and the run's settings (the scan's options, the
 * spool, the report files, OAuth), each bad one an InputError before the scan starts. The CLI adds
 * the signal, the progress and the interrupt, and runs app/scan/scan-run.ts.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultCacheDir } from '../../model/cache-dir.js';
import { InputError } from '../../model/input-error.js';
import { idemscanCommand } from '../../model/invocation.js';
import { TOOL_VERSION } from '../../model/version.js';
import { msg, show } from '../../render/message.js';
import type { ScanOptions } from './scan.js';
import { parseShard, selectShard, type Shard } from '../../targets/shard.js';
import type { SkippedTarget, Target } from '../../targets/types.js';
import { auditTarget, schemelessUrl, urlScheme, type ServerFlags } from '../audit-target.js';
import type { LockSettings } from './baseline.js';
import { loadTargets } from '../load-targets.js';
import { oauthScanOptions, type OAuthFlags } from '../auth/oauth-options.js';
import type { Say } from '../say.js';
import { checkScan, type ScanRunSettings } from './scan-run.js';
import { checkWritable, refuseUnbound } from '../writable.js';

export type { ProgressEvent } from './scan.js';
export type { Target };

// What only some runs need is imported when they need it (target files, profiles, --fail-on, lock
// files): each brings zod schemas, built at import, that `audit` of one server does without.

const DEFAULT_TARGETS = fileURLToPath(new URL('../../../targets/reference.json', import.meta.url));

/** The flags of scan, audit and lock read here, as cli/flags.ts declares them. */
export interface ScanInputFlags extends OAuthFlags, LockSettings {
  out?: string;
  format: string[];
  json?: string;
  concurrency?: number;
  httpConcurrency?: number;
  timeout?: number;
  probeTimeout?: number;
  maxPages: number;
  trust?: string[];
  profile?: string[];
  failOn?: string;
  sarifUri?: string[];
  suppress?: string;
  sandbox?: boolean;
  writable?: string[];
  install?: boolean;
  cacheDir?: string;
  allowSdist?: boolean;
  resume?: boolean;
  allowEnv?: string[];
  shard?: string;
  discover?: boolean;
  projectConfigs?: boolean;
}

/** `--profile`: none loads nothing (profiles are zod-validated files). */
async function profilesOf(names: string[]) {
  if (names.length === 0) return [];
  return (await import('../../classify/profiles/index.js')).loadProfiles(names);
}

/**
 * The flags that are checked without touching anything, before any target file is read: a
 * mistyped --fail-on word must not first read the bundled list and print its skipped entries.
 */
export async function checkFlags(flags: ScanInputFlags) {
  const profiles = await profilesOf(flags.profile ?? []); // bad profile files are input errors before the scan
  const failOn =
    flags.failOn === undefined
      ? undefined
      : (await import('./fail-on-words.js')).parseFailOn(
          flags.failOn,
          profiles.map((p) => p.profile),
        ); // and unknown --fail-on words
  const sarifUris = flags.sarifUri?.length // and --sarif-uri paths outside the repository
    ? (await import('../sarif-uri.js')).parseSarifUris(flags.sarifUri)
    : undefined;
  const suppress = await (await import('./suppress-file.js')).loadSuppress(flags.suppress); // and suppression entries without a reason
  const writable = checkWritable(flags); // --writable without --sandbox, or a path that would undo the hiding
  return { profiles, failOn, sarifUris, suppress, writable };
}

export type CheckedFlags = Awaited<ReturnType<typeof checkFlags>>;

/** The targets of `scan` and `lock`, with the flags checked first and the skipped entries said. */
export interface ScanTargets {
  checked: CheckedFlags;
  targets: Target[];
  skipped: SkippedTarget[];
  shard?: Shard;
}

/** A URL is no target file: for one server, audit (a URL without its scheme would be "not found"). */
function refuseUrls(files: string[]): void {
  const url = files.find((f) => urlScheme(f) !== undefined);
  if (url !== undefined)
    throw new InputError(
      msg`"${show.url(url)}" is a URL; scan reads target files (for one server: ${idemscanCommand('audit URL')})`,
    );
  for (const f of files) {
    const bare = existsSync(f) ? undefined : schemelessUrl(f);
    if (bare !== undefined)
      throw new InputError(
        msg`"${show.url(f)}" is a URL without its scheme, and no file; scan reads target files (for one server: ${idemscanCommand('audit')} ${show.url(bare)})`,
      );
  }
}

/** `scan` and `lock`: the target files (the bundled list when none is named), --discover's servers, the shard. */
export async function scanTargets(files: string[], flags: ScanInputFlags, say: Say): Promise<ScanTargets> {
  // --discover alone scans what the clients list; the bundled list only when nothing is named.
  const list = files.length > 0 || flags.discover ? files : [DEFAULT_TARGETS];
  refuseUrls(files);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (flags.projectConfigs && !flags.discover)
    throw new InputError('--project-configs chooses what --discover scans: give --discover too');
  const checked = await checkFlags(flags);
  const allowEnv = flags.allowEnv ?? [];
  let loaded = await loadTargets(list, allowEnv);
  if (flags.discover)
    loaded = await (
      await import('../discover/discovered.js')
    ).addDiscovered(loaded, { projectConfigs: flags.projectConfigs, allowEnv }, say);
  // Entries that cannot be scanned, even with -q; a source may be a file name from a cloned repository.
  for (const s of loaded.skipped)
    say.tell(msg`skipped ${show.name(s.name)} (${show.path(s.source)}): ${show.reason(s.reason)}`);
  // A shard may be empty (more shards than servers): that is an empty report, not an error.
  const targets = shard ? selectShard(loaded.targets, shard) : loaded.targets;
  // A path a listed server is given that the sandbox would hide: the library warns (scan.ts), as the scan starts.
  return { checked, targets, skipped: loaded.skipped, shard };
}

/** `audit`: the one server of the command line, or the saved tools/list results of `--tools`. */
export async function auditTargets(
  words: string[],
  flags: ServerFlags & { tools?: string; server?: string },
): Promise<Target[]> {
  if (flags.tools === undefined) {
    if (flags.server !== undefined)
      throw new InputError('--server picks a server of a report: give it with --tools report.json');
    return [auditTarget(words, flags)];
  }
  return (await import('./static-audit.js')).staticTargets(flags.tools, words, flags);
}

/** Which run: its writer and what only some runs have. */
export interface RunKind {
  writer: ScanRunSettings['writer'];
  skipped?: SkippedTarget[];
  shard?: Shard;
  /** `audit` without --name: the server named by what it calls itself. */
  nameFromServerInfo?: boolean;
  /** The URL the command itself names (`audit URL`), the one server --client-id is for. */
  named?: string;
  /** `audit --save-tools FILE`: the tools list the server answers, written to FILE. */
  saveTools?: string;
}

/**
 * The run's settings but the interrupt, the signal and the progress (the CLI's), after what can be
 * checked before the scan starts, each an input error then rather than a lost scan. `signIn`:
 * where a sign-in's instructions go.
 */
export async function runSettings(
  checked: CheckedFlags,
  targets: Target[],
  flags: ScanInputFlags,
  kind: RunKind,
  signIn: (text: string) => void,
): Promise<Omit<ScanRunSettings, 'interrupt'>> {
  if (targets.length === 0 && !kind.shard) throw new InputError('no targets to scan');
  const files = { out: flags.out, formats: flags.format, json: flags.json };
  const manyInMemory = kind.writer === 'scan' || kind.writer === 'lock';
  const baseline = await checkScan(files, { ...flags, drift: checked.failOn?.drift }, manyInMemory);
  const oauth = oauthScanOptions(flags, kind.named, signIn); // and a --client-secret-env variable that is not set
  const { suppress, failOn, sarifUris } = checked;
  // What the user typed for audit: a path the sandbox hides is an error before the server starts.
  if (kind.writer === 'audit')
    for (const t of targets) refuseUnbound(t, checked.writable, flags, { missing: 'ignore' });
  const saveTools = kind.saveTools === undefined ? undefined : await toolsSaver(kind.saveTools, targets);
  return {
    targets,
    options: { ...scanOptions(flags, checked, kind), oauth, onObserved: saveTools?.keep },
    writer: kind.writer,
    files,
    render: { rulesBaseUrl: flags.rulesBaseUrl, sarifUris },
    post: { nameFromServerInfo: kind.nameFromServerInfo, suppress, baseline, failOn },
    // `scan` spools each server to --out as it finishes (flat memory, --resume); audit and lock keep one report.
    spool: kind.writer === 'scan' ? spoolSettings(flags, checked.writable) : undefined,
    lock: flags.lock,
    saveTools,
  };
}

/** `--save-tools`: checked before the scan (a live server, a file that can be written); it keeps what is sent. */
async function toolsSaver(file: string, targets: Target[]) {
  const { checkSaveTools, ToolsSaver } = await import('./save-tools.js');
  await checkSaveTools(
    file,
    targets.some((t) => t.kind === 'saved'),
  );
  return new ToolsSaver(file);
}

/** The scan's options from the flags (the signal, progress and OAuth are the run's). */
function scanOptions(flags: ScanInputFlags, checked: CheckedFlags, kind: RunKind): ScanOptions {
  return {
    concurrency: flags.concurrency ?? 1,
    httpConcurrency: flags.httpConcurrency ?? 1,
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    maxPages: flags.maxPages,
    trust: flags.trust,
    trustServerInfo: kind.nameFromServerInfo,
    profiles: checked.profiles,
    sandbox: flags.sandbox,
    writable: checked.writable,
    install: flags.install,
    cacheDir: flags.cacheDir,
    allowSdist: flags.allowSdist,
    skipped: kind.skipped ?? [],
    shard: kind.shard,
  };
}

/** The spool of `scan` under --out, and the options a resumed scan must share with the one it resumes. */
function spoolSettings(flags: ScanInputFlags, writable: string[] | undefined): ScanRunSettings['spool'] {
  const run = {
    tool: TOOL_VERSION,
    trust: flags.trust ?? [],
    sandbox: !!flags.sandbox,
    maxPages: flags.maxPages,
    profiles: flags.profile ?? [],
    // Real paths (checkWritable's), sorted: the same directories given another way are the same run.
    ...(writable?.length ? { writable: [...writable].sort() } : {}),
  };
  return { resume: !!flags.resume, cacheDir: flags.cacheDir ?? defaultCacheDir(), run };
}
