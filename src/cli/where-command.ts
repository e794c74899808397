/**
 * `idemscan where`: the MCP client files found here (HOME and the current folder), with how many
 * servers each holds or why it cannot be read, and which are project-scoped (scanned only with
 * `--project-configs`). And the `--discover` step of `scan`.
 */
import os from 'node:os';
import type { Command } from 'commander';
import type { Discovery, FoundFile } from '../targets/discover/index.js';
import type { LoadedTargets } from '../targets/types.js';
import { safeText } from '../report/terminal.js';
import { plural } from '../report/verdicts.js';

const PROJECT_FLAG = '--project-configs';

// Loaded when asked for: the TOML and YAML parsers behind it are not every command's start-up cost.
async function discoverHere(allowEnv: readonly string[] = [], projectConfigs = false): Promise<Discovery> {
  const { discover } = await import('../targets/discover/index.js');
  return discover({ home: os.homedir(), project: process.cwd(), env: process.env, allowEnv, projectConfigs });
}

const servers = (n: number) => plural(n, 'server');

function fileLine(f: FoundFile): string {
  if (f.error) return `error: ${safeText(f.error, 300)}`;
  const parts = [servers(f.servers)];
  if (f.skipped) parts.push(`${f.skipped} skipped`);
  if (f.leftOut) parts.push(`${f.leftOut} left out (bounded)`);
  if (f.projectServers > 0) {
    const some = f.projectServers === f.servers ? '' : `${f.projectServers} of them `;
    parts.push(`${some}project-scoped: scanned only with ${PROJECT_FLAG}`);
  }
  return parts.join(', ');
}

export function registerWhere(program: Command): void {
  program
    .command('where')
    .description(`list the MCP client configuration files found in HOME and the current folder (what scan --discover reads; project-scope files with ${PROJECT_FLAG})`)
    .option('--json', 'print the list as JSON')
    .action(async (flags: { json?: boolean }) => {
      const found = await discoverHere([], true);
      if (flags.json) {
        process.stdout.write(JSON.stringify({ files: found.files, servers: found.targets.length }, null, 2) + '\n');
        return;
      }
      if (found.files.length === 0) {
        process.stdout.write(`No MCP client configuration found in ${safeText(os.homedir(), 300)} or ${safeText(process.cwd(), 300)}.\n`);
        return;
      }
      for (const f of found.files) process.stdout.write(`${f.client.padEnd(18)} ${f.scope.padEnd(7)} ${safeText(f.file, 300)}  ${fileLine(f)}\n`);
      process.stdout.write(`${servers(found.targets.length).replace('server', 'distinct server')} in ${found.files.length} file${found.files.length === 1 ? '' : 's'}\n`);
    });
}

export interface DiscoverFlags {
  quiet?: boolean;
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
  if (found.files.length === 0) process.stderr.write('idemscan: --discover found no MCP client configuration (see `idemscan where`)\n');
  else if (!flags.quiet) process.stderr.write(`idemscan: --discover found ${targets.length} server(s) in ${found.files.length} client file(s)\n`);
  if (!flags.projectConfigs && project.length > 0) {
    // Even with -q: the scan is less than the clients configure here, and this says why.
    const files = [...new Set(project.flatMap((t) => t.listedBy.map((l) => l.file)))];
    const shown = files.slice(0, 3).map((f) => safeText(f, 200)).join(', ') + (files.length > 3 ? `, ${files.length - 3} more` : '');
    process.stderr.write(`idemscan: skipped ${servers(project.length)} of project-scope configs (${shown}): scan them with ${PROJECT_FLAG}\n`);
  }
  // A project file's own problems are news only to one who scans it.
  const projectFiles = new Set(found.files.filter((f) => f.scope === 'project').map((f) => f.file));
  const skipped = flags.projectConfigs ? found.skipped : found.skipped.filter((s) => !projectFiles.has(s.source));
  const { mergeTargets } = await import('../targets/discover/index.js');
  return { targets: mergeTargets(loaded.targets, targets), skipped: [...loaded.skipped, ...skipped] };
}
