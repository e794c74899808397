/** What `scan`, `audit` and `lock` make of their flags: each bad one an InputError before the scan starts. */
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
import { auditTarget, schemelessUrl, urlScheme, type ServerSettings } from '../audit-target.js';
import type { LockSettings } from './baseline.js';
import { loadTargets } from '../load-targets.js';
import { oauthScanOptions, type OAuthSettings } from '../auth/oauth-options.js';
import type { Say } from '../say.js';
import { checkScan, type ScanRunSettings } from './scan-run.js';
import { checkWritable } from '../writable.js';

export type { ProgressEvent } from './scan.js';
export type { Target };

// Lazy imports: docs/INTERNALS.md, "Start-up".

const DEFAULT_TARGETS = fileURLToPath(new URL('../../../targets/reference.json', import.meta.url));

/** What scan, audit and lock need: the outputs, the bounds, the gates, the sandbox and the installs. */
export interface ScanSettings extends OAuthSettings, LockSettings {
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

async function profilesOf(names: string[]) {
  if (names.length === 0) return [];
  return (await import('../../classify/profiles/index.js')).loadProfiles(names);
}

/** Before any target file is read: a mistyped --fail-on word must not first print the bundled list's skips. */
export async function checkSettings(flags: ScanSettings) {
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

export type CheckedSettings = Awaited<ReturnType<typeof checkSettings>>;

export interface ScanTargets {
  checked: CheckedSettings;
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

export async function scanTargets(files: string[], flags: ScanSettings, say: Say): Promise<ScanTargets> {
  // --discover alone scans what the clients list; the bundled list only when nothing is named.
  const list = files.length > 0 || flags.discover ? files : [DEFAULT_TARGETS];
  refuseUrls(files);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (flags.projectConfigs && !flags.discover)
    throw new InputError('--project-configs chooses what --discover scans: give --discover too');
  const checked = await checkSettings(flags);
  const allowEnv = flags.allowEnv ?? [];
  let loaded = await loadTargets(list, allowEnv);
  if (flags.discover)
    loaded = await (
      await import('../discover/discovered.js')
    ).addDiscovered(loaded, { projectConfigs: flags.projectConfigs, allowEnv }, say);
  // Entries that cannot be scanned, even with -q, each by the one shard its name falls in.
  for (const s of shard ? selectShard(loaded.skipped, shard) : loaded.skipped)
    say.tell(msg`skipped ${show.name(s.name)} (${show.path(s.source)}): ${show.reason(s.reason)}`);
  // A shard may be empty (more shards than servers): that is an empty report, not an error.
  const targets = shard ? selectShard(loaded.targets, shard) : loaded.targets;
  return { checked, targets, skipped: loaded.skipped, shard };
}

export async function auditTargets(
  words: string[],
  flags: ServerSettings & { tools?: string; server?: string },
): Promise<Target[]> {
  if (flags.tools === undefined) {
    if (flags.server !== undefined)
      throw new InputError('--server picks a server of a report: give it with --tools report.json');
    return [auditTarget(words, flags)];
  }
  return (await import('./static-audit.js')).staticTargets(flags.tools, words, flags);
}

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

export async function runSettings(
  checked: CheckedSettings,
  targets: Target[],
  flags: ScanSettings,
  kind: RunKind,
  signIn: (text: string) => void,
): Promise<Omit<ScanRunSettings, 'interrupt'>> {
  if (targets.length === 0 && !kind.shard) throw new InputError('no targets to scan');
  const files = { out: flags.out, formats: flags.format, json: flags.json };
  const manyInMemory = kind.writer === 'scan' || kind.writer === 'lock';
  const baseline = await checkScan(files, { ...flags, drift: checked.failOn?.drift }, manyInMemory);
  const oauth = oauthScanOptions(flags, kind.named, signIn); // and a --client-secret-env variable that is not set
  const { suppress, failOn, sarifUris } = checked;
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

/** Checked before the scan: a live server, a file that can be written. */
async function toolsSaver(file: string, targets: Target[]) {
  const { checkSaveTools, ToolsSaver } = await import('./save-tools.js');
  await checkSaveTools(
    file,
    targets.some((t) => t.kind === 'saved'),
  );
  return new ToolsSaver(file);
}

function scanOptions(flags: ScanSettings, checked: CheckedSettings, kind: RunKind): ScanOptions {
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

/** With the options a resumed scan must share with the one it resumes. */
function spoolSettings(flags: ScanSettings, writable: string[] | undefined): ScanRunSettings['spool'] {
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
