/** All-or-nothing npm installs: npm writes a private part, renamed onto the entry only once it has succeeded. */
// npm writes package.json (the installed mark) early: a cut-short install must never sit at the entry's name.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isInstalled, npmEnv, ownNpmProject, packageDir, splitSpec } from './npm-cache.js';
import { bounded } from '../model/bounds.js';
import { LIMITS } from '../model/limits.js';

const INSTALL_TIMEOUT_MS = 10 * 60_000;
/** A part older than this is left over whoever made it: no install outlives its timeout. */
const STALE_PART_MS = 12 * INSTALL_TIMEOUT_MS;
/** `-HOST-PID-RANDOM` at the end of a part's name; HOST tells another machine's part on a shared cache. */
const PART = /-([0-9a-f]{8})-(\d+)-[0-9a-f]{8}$/;
const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);

export type EntryInstall = { ok: true } | { ok: false; canceled: boolean; error: string };

const partsDir = (cacheDir: string) => path.join(cacheDir, 'npm', '.parts');
/** A new part for `spec` of process `pid` on this machine (exported for the tests of sweepParts). */
export const newPart = (cacheDir: string, spec: string, pid = process.pid) =>
  path.join(
    partsDir(cacheDir),
    `${path.basename(packageDir(cacheDir, spec))}-${HOST}-${pid}-${randomBytes(4).toString('hex')}`,
  );

export async function installEntry(spec: string, cacheDir: string, signal?: AbortSignal): Promise<EntryInstall> {
  const part = newPart(cacheDir, spec);
  try {
    await ownNpmProject(part);
    const { execa } = await import('execa'); // loaded when npm runs: ~0.1 s of start-up otherwise
    const run = await execa(
      'npm',
      [
        'install',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--omit=dev',
        '--loglevel=error',
        spec,
      ],
      // No package code runs here, so npm gets the user's npm settings (registry, auth for private
      // packages, proxy) and nothing else.
      { cwd: part, reject: false, timeout: INSTALL_TIMEOUT_MS, extendEnv: false, env: npmEnv(), cancelSignal: signal },
    );
    if (run.isCanceled) return { ok: false, canceled: true, error: 'interrupted' };
    const installed = path.join(part, 'node_modules', splitSpec(spec).name, 'package.json');
    if (run.exitCode !== 0 || !existsSync(installed))
      return { ok: false, canceled: false, error: npmErrorText(String(run.stderr || run.message)) };
    return await publish(part, spec, cacheDir);
  } finally {
    await rm(part, { recursive: true, force: true });
  }
}

/** A rename onto a non-empty directory fails, so another's entry is never replaced; a half entry is moved aside. */
async function publish(part: string, spec: string, cacheDir: string): Promise<EntryInstall> {
  const dir = packageDir(cacheDir, spec);
  for (let attempt = 1; ; attempt++) {
    try {
      await rename(part, dir);
      return { ok: true };
    } catch (err) {
      if (isInstalled(cacheDir, spec)) return { ok: true };
      if (attempt === 2)
        return { ok: false, canceled: false, error: `cannot publish ${dir}: ${(err as Error).message}` };
    }
    // Two processes may both find it in the way; the second may then move aside the first's fresh
    // entry, and publish its own, as good, at the same path before the next attempt.
    const aside = newPart(cacheDir, spec);
    await rename(dir, aside).catch(() => undefined);
    await rm(aside, { recursive: true, force: true });
  }
}

/** Removes the parts of ended processes on this machine, and any part older than an install can run. */
export async function sweepParts(cacheDir: string): Promise<void> {
  const dir = partsDir(cacheDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const at = path.join(dir, name);
      const match = PART.exec(name);
      const gone = match?.[1] === HOST && !alive(Number(match[2]));
      const age = Date.now() - ((await stat(at).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (gone || age > STALE_PART_MS) await rm(at, { recursive: true, force: true });
    }),
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process is there, another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** npm's last line names a local debug log: no reason, and a path of this machine in a shared report. */
const LOG_PATH = /A complete log of this run can be found in|Log files were not written/;
/** npm's line prefix, and the tag some of its messages carry (`npm error network request to ...`). */
const NPM_PREFIX = /^npm (?:error|ERR!) ?(?:(?:network|notarget) )?/;
/** `code E404`, `errno -3008`: a code the lines after it say in words. */
const CODE_LINE = /^(?:code|errno|syscall|path|dest|signal) \S+$/;
/** npm's first lines say what failed; later ones are its general advice. */
const SAID_LINES = 3;
/** What is read of npm's output: its reason is in the first lines. */
const READ_CHARS = 64 * 1024;

/** npm's output without the debug-log line, trimmed, blank lines dropped. */
export function npmLines(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !LOG_PATH.test(l));
}

/** A failed npm run in one bounded line: a missing package or version said plainly, else npm's first reasons. */
export function npmErrorText(output: string): string {
  const lines = npmLines(output.slice(0, READ_CHARS));
  const missing = missingText(lines.join('\n'));
  if (missing) return missing;
  const npmSaid = lines.filter((l) => NPM_PREFIX.test(l)).map((l) => l.replace(NPM_PREFIX, '').trim());
  const reasons = (npmSaid.length ? npmSaid : lines).filter((l) => l !== '' && !CODE_LINE.test(l));
  const said = reasons
    .slice(0, SAID_LINES)
    .map((l) => l.replace(/\.$/, ''))
    .join('; ');
  return said
    ? bounded(said, LIMITS.errorChars)
    : 'npm failed without an error message (its debug log is in _logs of its cache)';
}

/** E404 (no such package, or one this user may not read) and ETARGET (no such version), as npm words them. */
function missingText(text: string): string | undefined {
  const target = /No matching version found for (\S+?)\.?$/m.exec(text)?.[1];
  if (target) {
    const at = target.lastIndexOf('@');
    const [name, version] = at > 0 ? [target.slice(0, at), target.slice(at + 1)] : [target, ''];
    return `npm has no version ${shown(version || 'matching')} of "${shown(name)}"`;
  }
  if (!/\bE404\b|\b404 Not Found\b/.test(text)) return undefined;
  const resource = /The requested resource '([^']+)' could not be found/.exec(text)?.[1];
  const at = resource?.lastIndexOf('@') ?? -1;
  const name = resource && at > 0 ? resource.slice(0, at) : (resource ?? urlName(text));
  return name
    ? `npm has no package "${shown(name)}" (404 from the registry)`
    : 'npm has no such package (404 from the registry)';
}

/** The package a `404 Not Found - GET URL` line asked for: the URL's last segment, with its scope. */
function urlName(text: string): string | undefined {
  const url = /404 Not Found - GET (\S+)/.exec(text)?.[1];
  if (!url) return undefined;
  let segments: string[];
  try {
    segments = decodeURIComponent(new URL(url).pathname).split('/').filter(Boolean);
  } catch {
    return undefined;
  }
  const last = segments.at(-1);
  const scope = segments.at(-2);
  return last && scope?.startsWith('@') ? `${scope}/${last}` : last;
}

const shown = (name: string) => bounded(name, LIMITS.nameChars);
