import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProfiles, ProfileError } from '../classify/profiles/index.js';
import { installPackages, installScriptSpecs, defaultCacheDir } from '../targets/npm.js';
import { loadTargetFiles } from '../targets/load.js';
import { parseShard, selectShard, type Shard } from '../targets/shard.js';
import { TargetFileError, type Target } from '../targets/types.js';
import { reporter, REPORTERS } from '../report/reporters/index.js';
import type { Report } from '../report/schema.js';
import { scan, type ScanOptions } from '../scan.js';
import { safeText } from '../report/terminal.js';
import { EXIT, UsageError } from './exit.js';
import { failOnMatches, parseFailOn, type FailOn } from './fail-on.js';
import { addDiscovered } from './where-command.js';
import { oauthScanOptions, type OAuthFlags } from './auth-command.js';
import { applyBaseline, prepareBaseline, writeLock } from './lock-command.js';
import { checkOutputDir, checkOutputFile, codeOf, writeFallback, writeOutputFile } from './output.js';
import { EXIT_INTERRUPTED, watchSignals } from './signals.js';

export const DEFAULT_TARGETS = fileURLToPath(new URL('../../targets/reference.json', import.meta.url));

export interface ScanFlags extends OAuthFlags {
  json?: string;
  out: string;
  format: string;
  concurrency: number;
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
}

export async function scanCommand(files: string[], flags: ScanFlags & { shard?: string; discover?: boolean }): Promise<void> {
  // --discover alone scans what the clients list; the bundled list only when nothing is named.
  const list = files.length > 0 || flags.discover ? files : [DEFAULT_TARGETS];
  let shard: Shard | undefined;
  try {
    shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  } catch (err) {
    throw new UsageError(`--shard: ${(err as Error).message}`);
  }
  let loaded = await loadOrUsage(list);
  if (flags.discover) loaded = await addDiscovered(loaded, flags.quiet);
  // A source may be a file name from a cloned repository (.continue/mcpServers/*.yaml): escaped too.
  for (const s of loaded.skipped) process.stderr.write(`idemscan: skipped ${safeText(s.name, 80)} (${safeText(s.source, 300)}): ${safeText(s.reason, 400)}\n`);
  // A shard may be empty (more shards than servers): that is an empty report, not an error.
  await run(shard ? selectShard(loaded.targets, shard) : loaded.targets, flags, 'table', loaded.skipped, { shard });
}

/** A target file that cannot be read is a usage error (exit 2), named in the message. */
async function loadOrUsage(files: string[]) {
  try {
    return await loadTargetFiles(files);
  } catch (err) {
    if (err instanceof TargetFileError) throw new UsageError(err.message);
    throw err;
  }
}

export interface AuditFlags extends ScanFlags {
  header?: string[];
  env?: string[];
  sse?: boolean;
  name?: string;
}

export async function auditCommand(words: string[], flags: AuditFlags): Promise<void> {
  await run([auditTarget(words, flags)], flags, 'tools', []);
}

function auditTarget(words: string[], flags: AuditFlags): Target {
  const [first, ...rest] = words;
  if (!first) throw new UsageError('audit needs a command (after --) or a URL');
  if (/^https?:\/\//i.test(first)) {
    if (!URL.canParse(first)) throw new UsageError(`"${first}" is not a URL`);
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

async function run(targets: Target[], flags: ScanFlags, view: 'table' | 'tools', skipped: ScanOptions['skipped'], extra: Pick<ScanOptions, 'shard'> = {}): Promise<void> {
  if (targets.length === 0 && !extra.shard) throw new UsageError('no targets to scan');
  const formats = flags.format.split(',').map((f) => f.trim()).filter(Boolean);
  for (const f of formats) {
    // Unknown formats, or ones that only print, are a usage error before anything starts.
    if (!REPORTERS[f]?.fileName) throw new UsageError(`--format ${f}: not a file format (${Object.values(REPORTERS).filter((r) => r.fileName).map((r) => r.id).join(', ')})`);
  }
  const profiles = await loadProfiles(flags.profile ?? []).catch((err: unknown) => {
    throw err instanceof ProfileError ? new UsageError(err.message) : err; // so are bad profile files
  });
  const failOn = parseFailOn(flags.failOn, profiles.map((p) => p.profile)); // and unknown --fail-on words
  await checkOutputs(flags, formats); // and output paths that cannot be written
  const baseline = await prepareBaseline(flags, failOn); // and lock files that cannot be read or written
  const oauth = oauthScanOptions(flags); // and a --client-secret-env variable that is not set
  const progress = !flags.quiet && process.stderr.isTTY;
  const interrupt = watchSignals();
  const scanned = await scan(targets, {
    concurrency: flags.concurrency,
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    maxPages: flags.maxPages,
    trust: flags.trust,
    profiles,
    sandbox: flags.sandbox,
    install: flags.install,
    cacheDir: flags.cacheDir,
    oauth,
    skipped,
    shard: extra.shard,
    signal: interrupt.signal,
    onProgress: (e) => {
      if (e.type === 'install' && !flags.quiet) {
        process.stderr.write(`idemscan: installing ${e.packages.length} pinned npm package(s) into ${e.cacheDir} (once; \`idemscan install\` does it ahead)\n`);
      }
      if (e.type === 'warning') process.stderr.write(`idemscan: ${e.message}\n`);
      if (e.type !== 'done' || !progress) return;
      const s = e.server;
      const status = s.status === 'ok' ? `${s.tools.length} tools` : `failed (${s.failure?.kind})`;
      process.stderr.write(`[${e.index + 1}/${e.total}] ${safeText(s.name, 60)}: ${status}, ${(s.durationMs / 1000).toFixed(1)} s\n`);
    },
  });
  const report = await interrupt.settle(scanned, targets.length);
  if (baseline) applyBaseline(report, baseline, flags);

  let written = await writeOutputs(report, flags, formats);
  if (flags.lock !== undefined && !interrupt.interrupted) written = (await writeLock(report, flags.lock, flags.quiet)) && written;
  if (!flags.quiet) {
    const text = reporter(view).render(report);
    (flags.json === '-' ? process.stderr : process.stdout).write(text);
  }
  const code = interrupt.interrupted ? EXIT_INTERRUPTED : exitCode(report, failOn);
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
async function writeOutputs(report: Report, flags: ScanFlags, formats: string[]): Promise<boolean> {
  const files = formats.map((f) => reporter(f)).filter((r) => r.fileName).map((r) => ({ dest: path.join(flags.out, r.fileName!), id: r.id }));
  if (flags.json && flags.json !== '-') files.push({ dest: flags.json, id: 'json' });
  let ok = true;
  for (const { dest, id } of files) {
    const data = reporter(id).render(report, { rulesBaseUrl: flags.rulesBaseUrl });
    try {
      await writeOutputFile(dest, data);
    } catch (err) {
      ok = false;
      const saved = await writeFallback(path.basename(dest), data).catch(() => undefined);
      process.stderr.write(`idemscan: cannot write ${safeText(dest, 300)} (${codeOf(err)}); ${saved ? `the report is saved in ${saved}` : 'no fallback file could be written either'}\n`);
    }
  }
  if (flags.json === '-') process.stdout.write(reporter('json').render(report));
  return ok;
}

function exitCode(report: Report, failOn: FailOn | undefined): number {
  if (report.summary.servers > 0 && report.summary.serversOk === 0) return EXIT.allFailed;
  const matched = failOn ? failOnMatches(report, failOn) : [];
  if (matched.length === 0) return EXIT.ok;
  process.stderr.write(`idemscan: --fail-on matched: ${safeText(matched.join('; '), 2_000)}\n`);
  return EXIT.failOn;
}

export async function installCommand(files: string[], flags: { concurrency: number; cacheDir?: string }): Promise<void> {
  const loaded = await loadOrUsage(files);
  for (const s of loaded.skipped) process.stderr.write(`idemscan: skipped ${safeText(s.name, 80)} (${s.source}): ${safeText(s.reason, 400)}\n`);
  const specs = loaded.targets.filter((t) => t.npm).map((t) => t.npm!);
  const cacheDir = flags.cacheDir ?? defaultCacheDir();
  const results = await installPackages(specs, cacheDir, flags.concurrency, installScriptSpecs(loaded.targets));
  for (const r of results) {
    const scripts = r.scripts ? `, install scripts in ${r.scripts}` : '';
    process.stdout.write(`${r.ok ? 'ok    ' : 'FAILED'} ${r.spec}${r.ms ? ` (${(r.ms / 1000).toFixed(1)} s${scripts})` : ' (cached)'}\n`);
    if (r.note) process.stderr.write(`idemscan: ${r.note}\n`);
    if (!r.ok) process.stderr.write(`${r.error}\n`);
  }
  process.stdout.write(`${results.filter((r) => r.ok).length}/${results.length} packages in ${cacheDir}\n`);
  if (results.some((r) => !r.ok)) process.exitCode = EXIT.allFailed;
}
