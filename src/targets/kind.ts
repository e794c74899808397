/** The one place a target gets its kind from flat fields, and is made flat again. */
import type { Target, TargetFields, TargetInput, TargetPackage } from './types.js';

/** A target as the library's loaders return it: the flat fields `scan()` takes, and its kind. */
export type LoadedTarget = TargetInput & { kind: Target['kind'] };

/** The report's word for how the server is reached (`target.transport`). */
export const transportOf = (t: Target): TargetInput['transport'] =>
  t.kind === 'remote' ? t.transport : t.kind === 'saved' ? 'static' : 'stdio';

/** The checked fields as the target of their kind; without `transport`, a `url` makes it `http`. */
export function toTarget(t: TargetFields): Target {
  const shared = {
    name: t.name,
    source: t.source,
    trusted: t.trusted,
    timeoutMs: t.timeoutMs,
    fakeEnv: t.fakeEnv,
    secrets: t.secrets,
    skip: t.skip,
    comment: t.comment,
    downloads: t.downloads,
    listedBy: t.listedBy,
  };
  const transport = t.transport ?? (t.url === undefined ? 'stdio' : 'http');
  if (transport === 'static') return { ...shared, kind: 'saved', saved: t.saved ?? { tools: [] } };
  if (transport !== 'stdio')
    return { ...shared, kind: 'remote', transport, url: t.url ?? '', headers: t.headers, oauth: t.oauth };
  const started = { ...shared, args: t.args, env: t.env, cwd: t.cwd };
  const pkg = packageIn(t);
  if (pkg) return { ...started, kind: 'package', package: pkg, launcher: t.launcher };
  return { ...started, kind: 'command', command: t.command ?? '' };
}

function packageIn(t: TargetFields): TargetPackage | undefined {
  if (t.npm !== undefined) return { type: 'npm', spec: t.npm, bin: t.bin, installScripts: t.installScripts };
  if (t.pypi !== undefined) return { type: 'pypi', spec: t.pypi, bin: t.bin, index: t.index };
  if (t.mcpb !== undefined) return { type: 'mcpb', url: t.mcpb.url, sha256: t.mcpb.sha256 };
  if (t.oci !== undefined) return { type: 'oci', ref: t.oci };
  return undefined;
}

export function inputOf(t: Target): LoadedTarget {
  if (t.kind !== 'package') return { ...t, transport: transportOf(t) };
  const { package: pkg, ...rest } = t;
  return { ...rest, transport: 'stdio', ...flatPackage(pkg) };
}

function flatPackage(p: TargetPackage): Partial<TargetInput> {
  switch (p.type) {
    case 'npm':
      return { npm: p.spec, bin: p.bin, installScripts: p.installScripts };
    case 'pypi':
      return { pypi: p.spec, bin: p.bin, index: p.index };
    case 'mcpb':
      return { mcpb: { url: p.url, sha256: p.sha256 } };
    case 'oci':
      return { oci: p.ref };
  }
}
