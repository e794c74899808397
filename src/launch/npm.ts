/** Pinned npm packages, installed once into the cache and run with `node` on the bin: no `npx` at scan time. */
import { existsSync } from 'node:fs';
import { realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { installEntry, sweepParts } from './npm-entry.js';
import { BATCH_SIZE, installBatch } from './npm-batch.js';
import { installedPackageJson, isInstalled, SCRIPTS_RAN } from './npm-cache.js';
import { runScripts, type ScriptsRun } from './npm-scripts.js';
import type { ContainOptions, SandboxMode } from './sandbox.js';
import type { PackageTarget } from '../targets/types.js';
import { defaultCacheDir } from '../model/cache-dir.js';
import { shellWord } from '../model/invocation.js';
import { readBoundedText } from '../io/read.js';
import { MAX_JSON_DEPTH, parseJson } from '../model/bounded-input.js';

/** For the "not installed" message: `idemscan install 'my targets.json' --cache-dir ...`. */
export function installHint(source: string, cacheDir: string): string {
  // The report keeps this message, and a report is read elsewhere: the name the docs use.
  return `idemscan install ${shellWord(sourceFile(source))} --cache-dir ${shellWord(cacheDir)}`;
}

/** The end of a plan-library server's `source` (census/behaviour/probe-library.ts): its file is no target file `install` reads. */
export const PLAN_LIBRARY_MARK = ' (plan library)';

/** A server given on the command line has no target file for `install`: audit is the command that installs it. */
export function installAdvice(source: string, cacheDir: string): string {
  if (source.endsWith(PLAN_LIBRARY_MARK))
    return `probe-census installs the missing pinned packages of its library: run it without --no-install (--cache-dir ${shellWord(cacheDir)})`;
  if (source !== 'command line') return `run \`${installHint(source, cacheDir)}\` first`;
  return `probe (and audit --no-install) does not install: run \`idemscan audit\` with the same server and --cache-dir ${shellWord(cacheDir)} first (it installs missing pinned packages and calls no tool), or put the server in a target file and run \`idemscan install FILE\``;
}

/** A file or entry name may hold `#` too: the longest prefix before a `#` that is a file wins. */
function sourceFile(source: string): string {
  for (let at = source.lastIndexOf('#'); at > 0; at = source.lastIndexOf('#', at - 1)) {
    if (existsSync(source.slice(0, at))) return source.slice(0, at);
  }
  return source;
}

/** A sandboxed process reads only its own package entry of idemscan's caches, read-only. */
export function cacheContainment(cacheDir: string, entry?: string): Pick<ContainOptions, 'readable' | 'hidden'> {
  return { readable: entry ? [entry] : [], hidden: cacheDirs(cacheDir) };
}

/** The scan's cache dir and the default one: both hold tokens and entries a server may reach. */
export function cacheDirs(cacheDir: string): string[] {
  return [...new Set([path.resolve(cacheDir), path.resolve(defaultCacheDir())])];
}

export function installScriptSpecs(targets: PackageTarget<'npm'>[]): Map<string, string> {
  return new Map(targets.flatMap(({ package: p }) => (p.installScripts ? [[p.spec, p.installScripts]] : [])));
}

export interface InstallResult {
  spec: string;
  ok: boolean;
  ms: number;
  error?: string;
  /** Where the package's install scripts ran, when its target asked for them. */
  scripts?: SandboxMode;
  /** For the user, a line each: install scripts ran without bubblewrap; a bundle source that failed before another verified. */
  note?: string;
}

/** No package code runs (`--ignore-scripts`); specs in `scripts` run theirs in the sandbox before they are published. */
export async function installPackages(
  specs: string[],
  cacheDir: string,
  concurrency = 4,
  scripts: ReadonlyMap<string, string> = new Map(),
  signal?: AbortSignal,
  onDone?: (result: InstallResult) => void,
): Promise<InstallResult[]> {
  const limit = pLimit(concurrency);
  await sweepParts(cacheDir);
  const reported = (result: InstallResult): InstallResult => {
    onDone?.(result);
    return result;
  };
  const misfits = new Set<string>();
  const one = (spec: string) =>
    installOne(spec, cacheDir, scripts.get(spec), { signal, fitEngines: misfits.has(spec) }).then(reported);
  const wanted = [...new Set(specs)];
  const plain = wanted.filter((s) => !scripts.has(s) && !isInstalled(cacheDir, s));
  const batches = chunks(plain, BATCH_SIZE).map((batch) =>
    limit(() => inBatch(batch, cacheDir, signal, { reported, misfits })),
  );
  const batched = (await Promise.all(batches)).flat();
  const done = new Set(batched.map((r) => r.spec));
  const rest = await Promise.all(wanted.filter((s) => !done.has(s)).map((s) => limit(() => one(s))));
  const bySpec = new Map([...batched, ...rest].map((r) => [r.spec, r]));
  return wanted.map((s) => bySpec.get(s)!);
}

/**
 * What one pnpm process installed of the batch; nothing when it failed (each is then installed
 * alone). Its entries whose picks want another Node join `misfits`.
 */
async function inBatch(
  batch: string[],
  cacheDir: string,
  signal: AbortSignal | undefined,
  { reported, misfits }: { reported: (r: InstallResult) => InstallResult; misfits: Set<string> },
): Promise<InstallResult[]> {
  if (batch.length < 2 || signal?.aborted) return [];
  const started = performance.now();
  const got = await installBatch(batch, cacheDir, signal);
  const ms = Math.round(performance.now() - started);
  for (const spec of got?.misfits ?? []) misfits.add(spec);
  return [...(got?.installed ?? [])].map(([spec, r]) =>
    reported(r.ok ? { spec, ok: true, ms } : { spec, ok: false, ms, error: r.error }),
  );
}

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

async function installOne(
  spec: string,
  cacheDir: string,
  reason: string | undefined,
  { signal, fitEngines }: { signal?: AbortSignal; fitEngines: boolean },
): Promise<InstallResult> {
  if (signal?.aborted) return { spec, ok: false, ms: 0, error: 'interrupted' };
  if (isInstalled(cacheDir, spec, reason !== undefined)) return { spec, ok: true, ms: 0 };
  const started = performance.now();
  const ran: ScriptsRun = {};
  const build =
    reason === undefined
      ? undefined
      : async (part: string) => {
          Object.assign(ran, await runScripts(part, cacheDirs(cacheDir), signal));
          if (!ran.error) await writeFile(path.join(part, SCRIPTS_RAN), `${reason}\n`);
          return ran.error;
        };
  // A cut-short install, or scripts that failed, published nothing: nothing to remove.
  const installed = await installEntry(spec, cacheDir, { signal, build, fitEngines });
  const ms = Math.round(performance.now() - started);
  if (!installed.ok) return { spec, ok: false, ms, scripts: ran.mode, error: installed.error };
  const note =
    ran.mode === undefined || ran.mode === 'bubblewrap'
      ? undefined
      : `install scripts of ${spec} ran without bubblewrap (network-only namespace: they could read your files)`;
  return { spec, ok: true, ms, ...(ran.mode && { scripts: ran.mode }), ...(note && { note }) };
}

/** A package.json is a few KB; its `exports` maps nest a handful of levels. */
const PACKAGE_JSON_BOUNDS = { maxBytes: 16 * 1024 * 1024, maxDepth: MAX_JSON_DEPTH };

export async function resolveNpmLaunch(
  target: PackageTarget<'npm'>,
  cacheDir: string,
): Promise<{ command: string; args: string[] }> {
  const { spec, bin: named } = target.package;
  const pkgJsonPath = installedPackageJson(cacheDir, spec);
  // The package's own file, which a server run without --sandbox may have replaced: bounded like any file.
  const read = await readBoundedText(pkgJsonPath, { maxBytes: PACKAGE_JSON_BOUNDS.maxBytes });
  const parsed = 'text' in read ? parseJson(read.text, PACKAGE_JSON_BOUNDS) : read;
  if ('error' in parsed) throw new Error(`${spec}: its package.json: ${parsed.error}`);
  const pkg = parsed.value as { name: string; bin?: string | Record<string, string> };
  const bins = typeof pkg.bin === 'string' ? { [unscoped(pkg.name)]: pkg.bin } : (pkg.bin ?? {});
  const names = Object.keys(bins);
  const chosen = named ?? (names.includes(unscoped(pkg.name)) ? unscoped(pkg.name) : names[0]);
  // Own keys only: a bin named `constructor` must not find Object's.
  const file = chosen && Object.hasOwn(bins, chosen) ? bins[chosen] : undefined;
  if (!file) {
    throw new Error(`${spec} has no bin${named ? ` named "${named}"` : ''} (has: ${names.join(', ') || 'none'})`);
  }
  // The package's real directory: pnpm links it into node_modules, and a server that compares its
  // argv[1] with its own module's path starts only when both are real paths.
  const binPath = path.resolve(await realpath(path.dirname(pkgJsonPath)), file);
  // Its first line is all that tells a node script: a bin that is huge, a FIFO or missing has none.
  const bin = await readBoundedText(binPath, { maxBytes: 200, cut: true });
  const head = 'text' in bin ? bin.text : '';
  const isNode = /\.[cm]?js$/.test(binPath) || /^#!.*\bnode\b/.test(head);
  return isNode
    ? { command: process.execPath, args: [binPath, ...(target.args ?? [])] }
    : { command: binPath, args: target.args ?? [] };
}

function unscoped(name: string): string {
  return name.replace(/^@[^/]+\//, '');
}
