/**
 * The MCP clients' configs found here (HOME and the current folder): what `where` lists and
 * `scan --discover` adds. Never prints: cli/where-command.ts and app/discover/discovered.ts say what was found.
 */
import os from 'node:os';
import type { Discovery, FoundFile } from '../../targets/discover/index.js';
import type { LoadedTargets, SkippedTarget } from '../../targets/types.js';

export type { FoundFile, LoadedTargets };

// Loaded when asked for: the TOML and YAML parsers behind it are not every command's start-up cost.
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
  /** How many client files and servers were found. */
  files: number;
  servers: number;
  /** Without `projectConfigs`: the project-scoped servers left out, and their files. */
  leftOut: { servers: number; files: string[] };
  /**
   * Without `projectConfigs`: the project-scope entries skipped for a `${VAR}` left unexpanded, which
   * `--project-configs` alone would not scan either (they need `--allow-env`); each is named.
   */
  unexpanded: SkippedTarget[];
}

/**
 * `scan --discover`: the discovered servers after those of the explicit files, the same server
 * once. A client file that cannot be used is in `skipped` (name: the client, source: the file),
 * so the scan's stderr lines and the report's `skipped` both carry it. Project-scoped servers
 * only with `projectConfigs`; a project file's own problems are news only to one who scans it.
 */
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
