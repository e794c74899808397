/** The MCP clients' configs in HOME and the current folder, for `where` and `scan --discover`; never prints. */
import os from 'node:os';
import type { Discovery, FoundFile } from '../../targets/discover/index.js';
import type { LoadedTargets, SkippedTarget } from '../../targets/types.js';

export type { FoundFile, LoadedTargets };

// Lazy: docs/INTERNALS.md, "Start-up".
export async function discoverHere(allowEnv: readonly string[] = [], projectConfigs = false): Promise<Discovery> {
  const { discover } = await import('../../targets/discover/index.js');
  return discover({ home: os.homedir(), project: process.cwd(), env: process.env, allowEnv, projectConfigs });
}

export interface DiscoverOptions {
  /** `--project-configs`: scan the project-scoped servers too. */
  projectConfigs?: boolean;
  allowEnv?: readonly string[];
}

export interface Discovered {
  /** The explicit files' targets and then the discovered ones, the same server once. */
  loaded: LoadedTargets;
  files: number;
  servers: number;
  /** Without `projectConfigs`: the project-scoped servers left out, and their files. */
  leftOut: { servers: number; files: string[] };
  /** Project-scope entries skipped for a `${VAR}` unexpanded: `--project-configs` alone would not scan them. */
  unexpanded: SkippedTarget[];
}

/** A project file's own problems are news only to one who scans it. */
export async function withDiscovered(loaded: LoadedTargets, options: DiscoverOptions = {}): Promise<Discovered> {
  const found = await discoverHere(options.allowEnv, options.projectConfigs);
  const project = options.projectConfigs ? [] : found.projectTargets;
  const projectFiles = new Set(found.files.filter((f) => f.scope === 'project').map((f) => f.file));
  const skipped = options.projectConfigs ? found.skipped : found.skipped.filter((s) => !projectFiles.has(s.source));
  const { mergeTargets } = await import('../../targets/discover/index.js');
  return {
    loaded: { targets: mergeTargets(loaded.targets, found.targets), skipped: [...loaded.skipped, ...skipped] },
    files: found.files.length,
    servers: found.targets.length,
    leftOut: { servers: project.length, files: [...new Set(project.flatMap((t) => t.listedBy.map((l) => l.file)))] },
    unexpanded: options.projectConfigs
      ? []
      : found.skipped.filter((s) => projectFiles.has(s.source) && s.unexpanded !== undefined),
  };
}
