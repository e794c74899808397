/** Pinned npm packages, installed once into the cache and run with `node` on the bin: no `npx` at scan time. */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { installEntry, npmLines, sweepParts } from './npm-entry.js';
import { BASE_ENV, installedPackageJson, isInstalled, packageDir, SCRIPTS_RAN } from './npm-cache.js';
import { contain, type ContainOptions, type SandboxMode } from './sandbox.js';
import type { PackageTarget } from '../targets/types.js';
import { defaultCacheDir } from '../model/cache-dir.js';
import { shellWord } from '../model/invocation.js';
import { boundedTail } from '../model/bounds.js';
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

/** No package code runs (`--ignore-scripts`); specs in `scripts` then get `npm rebuild` in the sandbox (runScripts). */
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
  const interrupted = async (spec: string, ms: number): Promise<InstallResult> => {
    await rm(packageDir(cacheDir, spec), { recursive: true, force: true });
    return { spec, ok: false, ms, error: 'interrupted' };
  };
  return Promise.all(
    [...new Set(specs)].map((spec) =>
      limit(async (): Promise<InstallResult> => {
        if (signal?.aborted) return { spec, ok: false, ms: 0, error: 'interrupted' };
        const started = performance.now();
        const withScripts = scripts.has(spec);
        if (isInstalled(cacheDir, spec, withScripts)) return { spec, ok: true, ms: 0 };
        const dir = packageDir(cacheDir, spec);
        const elapsed = () => Math.round(performance.now() - started);
        if (!isInstalled(cacheDir, spec)) {
          // A cut-short install published nothing (its error says 'interrupted'): nothing to remove.
          const installed = await installEntry(spec, cacheDir, signal);
          if (!installed.ok) return { spec, ok: false, ms: elapsed(), error: installed.error };
        }
        if (!withScripts) return { spec, ok: true, ms: elapsed() };
        const ran = await runScripts(dir, cacheDir, signal);
        if (signal?.aborted) return interrupted(spec, elapsed());
        if (ran.error) return { spec, ok: false, ms: elapsed(), scripts: ran.mode, error: ran.error };
        await writeFile(path.join(dir, SCRIPTS_RAN), `${scripts.get(spec)}\n`);
        const note =
          ran.mode === 'bubblewrap'
            ? undefined
            : `install scripts of ${spec} ran without bubblewrap (network-only namespace: they could read your files)`;
        return { spec, ok: true, ms: elapsed(), scripts: ran.mode, note };
      }).then(reported),
    ),
  );
}

/** In the sandbox: no network, only the entry writable, no npm auth tokens, proxy credentials or npmrc. */
async function runScripts(
  dir: string,
  cacheDir: string,
  signal?: AbortSignal,
): Promise<{ mode?: SandboxMode; error?: string }> {
  let launch;
  try {
    launch = contain(
      {
        command: 'npm',
        args: ['rebuild', '--ignore-scripts=false', '--no-audit', '--no-fund', '--loglevel=error'],
        cwd: dir,
        env: scriptEnv(dir),
      },
      { sandbox: true, writable: [dir], hidden: cacheContainment(cacheDir).hidden },
    );
  } catch (err) {
    return { error: `install scripts need a sandbox: ${(err as Error).message}` };
  }
  const { execa } = await import('execa');
  const run = await execa(launch.command, launch.args, {
    cwd: dir,
    reject: false,
    timeout: 10 * 60_000,
    extendEnv: false,
    env: launch.env,
    stdin: 'ignore',
    cancelSignal: signal,
  });
  if (run.exitCode !== 0)
    return {
      mode: launch.sandbox,
      error: `install scripts failed: ${boundedTail(npmLines(boundedTail(String(run.stderr || run.message), 4000)).join('\n'), 2000)}`,
    };
  return { mode: launch.sandbox };
}

/** No npm_config_* (tokens), no proxy variables (credentials), no npmrc, whose values npm exports to scripts. */
function scriptEnv(dir: string): Record<string, string> {
  const keep = Object.entries(process.env).filter(([k, v]) => v !== undefined && BASE_ENV.test(k)) as [
    string,
    string,
  ][];
  return {
    ...Object.fromEntries(keep),
    // Files that do not exist: npm reads no config from them (and refuses one file for both).
    npm_config_userconfig: path.join(dir, '.no-user-npmrc'),
    npm_config_globalconfig: path.join(dir, '.no-global-npmrc'),
    npm_config_update_notifier: 'false',
    PUPPETEER_SKIP_DOWNLOAD: '1',
    ...nodeHeaders(),
  };
}

/** node-gyp downloads the running Node's headers unless told where they are; the scripts have no network. */
export function nodeHeaders(execPath = process.execPath): { npm_config_nodedir?: string } {
  const prefix = path.dirname(path.dirname(execPath));
  return existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? { npm_config_nodedir: prefix } : {};
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
  const binPath = path.resolve(path.dirname(pkgJsonPath), file);
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
