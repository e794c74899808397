/** npm runners become npm-package launches, installed before the scan; an unpinned one gets npm's exact pick. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import maxSatisfying from 'semver/ranges/max-satisfying.js';
import satisfies from 'semver/functions/satisfies.js';
import validRange from 'semver/ranges/valid.js';
import { npmLaunchOf } from './launchers.js';
import { isInstalled, npmEnv, ownNpmProject } from './npm-cache.js';
import { exactVersionProblem } from '../model/package-spec.js';
import type { Target } from '../targets/types.js';
import { npmErrorText } from './npm-errors.js';
import { MAX_JSON_DEPTH, parseJson } from '../model/bounded-input.js';

/** `npm view` asks the registry for one document: far below this unless the registry is stuck. */
const RESOLVE_TIMEOUT_MS = 60_000;
/** `npm view NAME versions dist-tags`: a version list, about 100 KB for the packages with the most. */
const MAX_VIEW_BYTES = 16 * 1024 * 1024;

export function npmLaunchTargets(targets: Target[]): Target[] {
  return targets.map((t): Target => {
    if (t.kind !== 'command') return t;
    const found = npmLaunchOf(t.command, t.args ?? []);
    if (!found) return t;
    const { command: _, ...started } = t;
    return {
      ...started,
      kind: 'package',
      args: found.args,
      package: { type: 'npm', spec: `${found.name}@${found.version ?? found.range}`, bin: found.bin },
      launcher: { runner: found.runner, spec: found.spec, resolved: found.version === undefined },
    };
  });
}

export interface Resolution {
  /** Unpinned spec (`pkg@latest`) -> exact spec (`pkg@1.4.2`). */
  resolved: Map<string, string>;
  errors: Map<string, string>;
}

/** Asked of the registry once per name; offline (`--no-install`), the newest fitting version in the cache. */
export async function resolveUnpinned(
  targets: Target[],
  online: boolean,
  cacheDir: string,
  signal?: AbortSignal,
): Promise<Resolution> {
  const unpinned = [
    ...new Set(
      targets.flatMap((t) =>
        t.kind === 'package' && t.launcher?.resolved && t.package.type === 'npm' ? [t.package.spec] : [],
      ),
    ),
  ];
  const out: Resolution = { resolved: new Map(), errors: new Map() };
  const byName = new Map<string, string[]>();
  for (const spec of unpinned) {
    const name = spec.slice(0, spec.indexOf('@', 1));
    byName.set(name, [...(byName.get(name) ?? []), spec]);
  }
  const limit = pLimit(4);
  await Promise.all(
    [...byName].map(([name, specs]) =>
      limit(async () => {
        const meta = online ? await viewPackage(name, cacheDir, signal) : cachedVersions(name, cacheDir);
        for (const spec of specs) {
          const range = spec.slice(name.length + 1);
          const version = 'error' in meta ? undefined : pickVersion(meta, range);
          if (version) out.resolved.set(spec, `${name}@${version}`);
          else if ('error' in meta) out.errors.set(spec, meta.error);
          else
            out.errors.set(
              spec,
              online
                ? `no published version matches "${range}"`
                : `not pinned, and no version in the cache fits "${range}": resolving one needs the npm registry (scan without --no-install, run \`idemscan install\`, or pin it: "name@1.2.3")`,
            );
        }
      }),
    ),
  );
  return out;
}

export function withResolved(targets: Target[], resolution: Resolution): Target[] {
  return targets.map((t) => {
    const exact = t.kind === 'package' && t.package.type === 'npm' && resolution.resolved.get(t.package.spec);
    return exact ? { ...t, package: { ...t.package, spec: exact } } : t;
  });
}

/** The installed versions of `name` in the cache; the newest release stands for `latest`. */
function cachedVersions(name: string, cacheDir: string): PackageMeta {
  const prefix = `${name.replace('/', '+')}@`; // as packageDir names entries
  let entries: string[] = [];
  try {
    entries = readdirSync(path.join(cacheDir, 'npm'));
  } catch {
    // no cache yet
  }
  const versions = entries
    .filter((e) => e.startsWith(prefix))
    .map((e) => e.slice(prefix.length))
    .filter((v) => !exactVersionProblem(v) && isInstalled(cacheDir, `${name}@${v}`));
  const latest = maxSatisfying(versions, '*');
  return { versions, distTags: latest ? { latest } : {} };
}

interface PackageMeta {
  versions: string[];
  distTags: Record<string, string>;
}

/** npm's choice (npm-pick-manifest): a dist-tag's version; for a range, `latest` if it fits, else the highest. */
export function pickVersion(meta: PackageMeta, range: string): string | undefined {
  if (validRange(range) === null) return Object.hasOwn(meta.distTags, range) ? meta.distTags[range] : undefined;
  const latest = meta.distTags.latest;
  if (latest && satisfies(latest, range)) return latest;
  return maxSatisfying(meta.versions, range) ?? undefined;
}

/** Run as the installs run npm: in a directory of our own in the cache, with the user's npm settings. */
export async function viewPackage(
  name: string,
  cacheDir: string,
  signal?: AbortSignal,
): Promise<PackageMeta | { error: string }> {
  const cwd = path.join(cacheDir, 'npm-view');
  try {
    await ownNpmProject(cwd);
  } catch (err) {
    return { error: `cannot write the cache dir: ${(err as Error).message}` };
  }
  const { execa } = await import('execa');
  const run = await execa('npm', ['view', name, 'versions', 'dist-tags', '--json', '--loglevel=error'], {
    cwd,
    reject: false,
    timeout: RESOLVE_TIMEOUT_MS,
    extendEnv: false,
    env: npmEnv(),
    cancelSignal: signal,
    stdin: 'ignore',
  });
  if (run.isCanceled) return { error: 'interrupted' };
  if (run.timedOut) return { error: `the npm registry did not answer within ${RESOLVE_TIMEOUT_MS / 1000} s` };
  if (run.exitCode !== 0) return { error: `npm view failed: ${npmErrorText(String(run.stderr || run.message))}` };
  // What npm prints is the registry's: bounded like any answer from the network.
  const parsed = parseJson(String(run.stdout), { maxBytes: MAX_VIEW_BYTES, maxDepth: MAX_JSON_DEPTH });
  if (!('value' in parsed))
    return { error: `npm view printed no JSON${parsed.why === 'syntax' ? '' : ` (${parsed.error})`}` };
  try {
    const doc = parsed.value as { versions?: unknown; 'dist-tags'?: unknown };
    const versions = Array.isArray(doc.versions)
      ? doc.versions.filter((v): v is string => typeof v === 'string')
      : typeof doc.versions === 'string'
        ? [doc.versions]
        : [];
    const tags =
      doc['dist-tags'] && typeof doc['dist-tags'] === 'object' ? (doc['dist-tags'] as Record<string, unknown>) : {};
    const distTags = Object.fromEntries(
      Object.entries(tags).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    return { versions, distTags };
  } catch {
    return { error: 'npm view printed no JSON' };
  }
}
