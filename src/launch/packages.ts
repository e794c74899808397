/** The package types, in one table: scan() and `idemscan install` read only this. */
import { installPackages, installScriptSpecs, resolveNpmLaunch, type InstallResult } from './npm.js';
import { isInstalled, packageDir } from './npm-cache.js';
import { mcpbKind } from './mcpb.js';
import { ociKind } from './oci.js';
import type { InstallContext, PackageKind } from './package-kind.js';
import { parsePinnedSpec } from '../model/package-spec.js';
import { pypiKind } from './pypi.js';
import type { PackageTarget, PackageType, Target } from '../targets/types.js';

const npmKind: PackageKind<'npm'> = {
  spec: (t) => t.package.spec,
  problem(t) {
    const got = parsePinnedSpec(t.package.spec);
    return 'error' in got ? got.error : undefined;
  },
  installed: (t, cacheDir) => isInstalled(cacheDir, t.package.spec, !!t.package.installScripts),
  install: (targets, ctx) =>
    installPackages(
      targets.map((t) => t.package.spec),
      ctx.cacheDir,
      ctx.concurrency,
      installScriptSpecs(targets),
      ctx.signal,
      ctx.onDone,
    ),
  launch: async (t, cacheDir) => ({
    ...(await resolveNpmLaunch(t, cacheDir)),
    readable: [packageDir(cacheDir, t.package.spec)],
  }),
};

const PACKAGES: { [T in PackageType]: PackageKind<T> } = {
  npm: npmKind,
  pypi: pypiKind,
  mcpb: mcpbKind,
  oci: ociKind,
};

const TYPES = Object.keys(PACKAGES) as PackageType[];

const kindOf = (t: PackageTarget): PackageKind => PACKAGES[t.package.type];

export interface PackageOf {
  type: PackageType;
  spec: string;
  kind: PackageKind;
  target: PackageTarget;
}

export function packageOf(t: Target): PackageOf | undefined {
  if (t.kind !== 'package') return undefined;
  const kind = kindOf(t);
  return { type: t.package.type, spec: kind.spec(t), kind, target: t };
}

/** `errors` holds the specs already refused: those are not attempted. */
export async function installMissing(
  targets: Target[],
  ctx: InstallContext,
  errors: ReadonlyMap<string, string>,
): Promise<InstallResult[]> {
  const missing = missingTargets(targets, ctx.cacheDir, errors);
  const byType = TYPES.map(
    (type) => [type, missing.filter((p) => p.type === type).map((p) => p.target)] as const,
  ).filter(([, ts]) => ts.length > 0);
  const results = await Promise.all(
    byType.map(([type, ts]) => {
      const kind: PackageKind = PACKAGES[type];
      return kind.install(ts, ctx);
    }),
  );
  return results.flat();
}

/** The packages of targets that are not refused and not in the cache yet. */
export function missingTargets(targets: Target[], cacheDir: string, errors: ReadonlyMap<string, string>): PackageOf[] {
  return targets.flatMap((t) => {
    const p = packageOf(t);
    return p !== undefined && !errors.has(p.spec) && !p.kind.installed(p.target, cacheDir) ? [p] : [];
  });
}

/** A spec is refused only when every entry naming it is: one refused URL must not block another's good one. */
export function packageProblems(targets: Target[], errors: Map<string, string>): void {
  const usable = new Set<string>();
  const refused = new Map<string, string>();
  for (const t of targets) {
    const p = packageOf(t);
    if (!p || errors.has(p.spec)) continue;
    const problem = p.kind.problem(p.target);
    if (!problem) usable.add(p.spec);
    else if (!refused.has(p.spec)) refused.set(p.spec, problem);
  }
  for (const [spec, problem] of refused) if (!usable.has(spec)) errors.set(spec, problem);
}
