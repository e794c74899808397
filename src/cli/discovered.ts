/** The MCP clients' configs found here: what `where` lists and `scan --discover` adds. Not a command module. */
import os from 'node:os';
import type { Discovery } from '../targets/discover/index.js';
import type { LoadedTargets } from '../targets/types.js';
import { joinShown, msg, show } from '../render/message.js';
import { plural } from '../model/verdicts.js';
import { note, tell } from './say.js';

export const PROJECT_FLAG = '--project-configs';

// Loaded when asked for: the TOML and YAML parsers behind it are not every command's start-up cost.
export async function discoverHere(allowEnv: readonly string[] = [], projectConfigs = false): Promise<Discovery> {
  const { discover } = await import('../targets/discover/index.js');
  return discover({ home: os.homedir(), project: process.cwd(), env: process.env, allowEnv, projectConfigs });
}

export const servers = (n: number) => plural(n, 'server');

export interface DiscoverFlags {
  /** `--project-configs`: scan the project-scoped servers too. */
  projectConfigs?: boolean;
  allowEnv?: readonly string[];
}

/**
 * `scan --discover`: the discovered servers after those of the explicit files, the same server
 * once. A client file that cannot be used is in `skipped` (name: the client, source: the file),
 * so the scan's stderr lines and the report's `skipped` both carry it. Project-scoped servers
 * only with `--project-configs`; without it one line says how many were left and how to scan them.
 */
export async function addDiscovered(loaded: LoadedTargets, flags: DiscoverFlags = {}): Promise<LoadedTargets> {
  const found = await discoverHere(flags.allowEnv, flags.projectConfigs);
  const project = found.projectTargets;
  const targets = found.targets;
  if (found.files.length === 0) tell(msg`--discover found no MCP client configuration (see \`idemscan where\`)`);
  else note(msg`--discover found ${targets.length} server(s) in ${found.files.length} client file(s)`);
  if (!flags.projectConfigs && project.length > 0) {
    // Even with -q: the scan is less than the clients configure here, and this says why.
    const files = [...new Set(project.flatMap((t) => t.listedBy.map((l) => l.file)))];
    const shown = msg`${joinShown(
      files.slice(0, 3).map((f) => msg`${show.path(f)}`),
      ', ',
    )}${files.length > 3 ? `, ${files.length - 3} more` : ''}`;
    tell(msg`skipped ${servers(project.length)} of project-scope configs (${shown}): scan them with ${PROJECT_FLAG}`);
  }
  // A project file's own problems are news only to one who scans it.
  const projectFiles = new Set(found.files.filter((f) => f.scope === 'project').map((f) => f.file));
  const skipped = flags.projectConfigs ? found.skipped : found.skipped.filter((s) => !projectFiles.has(s.source));
  const { mergeTargets } = await import('../targets/discover/index.js');
  return { targets: mergeTargets(loaded.targets, targets), skipped: [...loaded.skipped, ...skipped] };
}
