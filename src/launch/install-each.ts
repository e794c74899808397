/** The install loop of the non-npm types; a content-keyed spec's sources are tried in order until one installs. */
// A source serving other bytes for that hash thus neither wins over nor blocks an honest one.
import pLimit from 'p-limit';
import type { InstallContext } from './package-kind.js';
import type { InstallResult } from './npm.js';
import type { PackageTarget, PackageType } from '../targets/types.js';
import { bounded } from '../model/bounds.js';
import { LIMITS } from '../model/limits.js';

export interface EachInstaller<T extends PackageType> {
  spec(target: PackageTarget<T>): string;
  /** Types whose install checks the bytes against the spec: where this entry's package comes from. */
  source?(target: PackageTarget<T>): string;
  installed(target: PackageTarget<T>, cacheDir: string): boolean;
  /** Installs one package; resolves with the error, or undefined when it is installed. */
  one(target: PackageTarget<T>, ctx: InstallContext): Promise<string | undefined>;
  cleanup(target: PackageTarget<T>, cacheDir: string): Promise<void>;
}

type Some<T> = [T, ...T[]];

/** Entries grouped by key, in the order each key first appears. */
function groupBy<T>(targets: T[], key: (t: T) => string): Map<string, Some<T>> {
  const groups = new Map<string, Some<T>>();
  for (const t of targets) {
    const k = key(t);
    const group = groups.get(k);
    if (group) group.push(t);
    else groups.set(k, [t]);
  }
  return groups;
}

export async function installEach<T extends PackageType>(
  targets: PackageTarget<T>[],
  ctx: InstallContext,
  kind: EachInstaller<T>,
): Promise<InstallResult[]> {
  const limit = pLimit(ctx.concurrency);
  return Promise.all(
    [...groupBy(targets, kind.spec)].map(([spec, entries]) =>
      limit(() => installSpec(spec, entries, ctx, kind)).then((r) => {
        ctx.onDone?.(r);
        return r;
      }),
    ),
  );
}

/** The entries of one source as a failure names them: by name only (another entry's URL may hold its credentials). */
function named(entries: PackageTarget[]): string {
  const names = entries.slice(0, 3).map((t) => bounded(t.name, LIMITS.nameChars));
  return entries.length > 3 ? `${names.join(', ')} and ${entries.length - 3} more` : names.join(', ');
}

/** Failures said in full, after them only counted, so that a list of hostile entries makes no long message. */
const SAID_FAILURES = 5;

function failureList(failures: string[]): string[] {
  const more = failures.length - SAID_FAILURES;
  return more > 0 ? [...failures.slice(0, SAID_FAILURES), `and ${more} more sources that failed`] : failures;
}

async function installSpec<T extends PackageType>(
  spec: string,
  entries: Some<PackageTarget<T>>,
  ctx: InstallContext,
  kind: EachInstaller<T>,
): Promise<InstallResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const failures: string[] = [];
  const sources = kind.source ? [...groupBy(entries, kind.source).values()] : [entries];
  for (const from of sources) {
    if (ctx.signal?.aborted) return { spec, ok: false, ms: ms(), error: 'interrupted' };
    // Checked before each source: another process may have installed it meanwhile.
    if (kind.installed(from[0], ctx.cacheDir))
      return { spec, ok: true, ms: failures.length ? ms() : 0, ...noted(spec, failures, from) };
    const error = await attempt(from[0], ctx, kind);
    if (error === undefined) return { spec, ok: true, ms: ms(), ...noted(spec, failures, from) };
    if (error === 'interrupted') return { spec, ok: false, ms: ms(), error };
    failures.push(kind.source ? `${named(from)}: ${bounded(error, LIMITS.errorChars)}` : error);
  }
  return { spec, ok: false, ms: ms(), error: failureList(failures).join('; ') };
}

/** The sources that failed before one installed: a line each (a warning each in a scan), beside the package. */
const noted = (spec: string, failures: string[], from: PackageTarget[]) =>
  failures.length
    ? {
        note: failureList(failures)
          .map((f) => `${spec}: ${f}; installed from the source of ${named(from)}`)
          .join('\n'),
      }
    : {};

async function attempt<T extends PackageType>(
  target: PackageTarget<T>,
  ctx: InstallContext,
  kind: EachInstaller<T>,
): Promise<string | undefined> {
  let error: string | undefined;
  try {
    error = await kind.one(target, ctx);
  } catch (err) {
    error = (err as Error).message;
  }
  if (ctx.signal?.aborted) error = 'interrupted';
  if (error !== undefined) await kind.cleanup(target, ctx.cacheDir);
  return error;
}

const BASE_ENV =
  /^(?:PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|TEMP|TMP|LANG|LC_ALL|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY)$/i;

/** For pip, uv, docker and podman: the basics, proxies and CA settings, none of their own config variables. */
export function installerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const keep = Object.entries(process.env).filter(([k, v]) => v !== undefined && BASE_ENV.test(k)) as [
    string,
    string,
  ][];
  return { ...Object.fromEntries(keep), ...extra };
}
