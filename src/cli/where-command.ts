/**
 * `idemscan where`: the MCP client files found here (HOME and the current folder), with how many
 * servers each holds or why it cannot be read. And the `--discover` step of `scan`.
 */
import os from 'node:os';
import type { Command } from 'commander';
import type { Discovery } from '../targets/discover/index.js';
import type { LoadedTargets } from '../targets/types.js';
import { safeText } from '../report/terminal.js';

// Loaded when asked for: the TOML and YAML parsers behind it are not every command's start-up cost.
async function discoverHere(): Promise<Discovery> {
  const { discover } = await import('../targets/discover/index.js');
  return discover({ home: os.homedir(), project: process.cwd(), env: process.env });
}

export function registerWhere(program: Command): void {
  program
    .command('where')
    .description('list the MCP client configuration files found in HOME and the current folder (what scan --discover reads)')
    .option('--json', 'print the list as JSON')
    .action(async (flags: { json?: boolean }) => {
      const found = await discoverHere();
      if (flags.json) {
        process.stdout.write(JSON.stringify({ files: found.files, servers: found.targets.length }, null, 2) + '\n');
        return;
      }
      if (found.files.length === 0) {
        process.stdout.write(`No MCP client configuration found in ${safeText(os.homedir(), 300)} or ${safeText(process.cwd(), 300)}.\n`);
        return;
      }
      for (const f of found.files) {
        const what = f.error ? `error: ${safeText(f.error, 300)}` : `${f.servers} server${f.servers === 1 ? '' : 's'}${f.skipped ? `, ${f.skipped} skipped` : ''}`;
        process.stdout.write(`${f.client.padEnd(18)} ${f.scope.padEnd(7)} ${safeText(f.file, 300)}  ${what}\n`);
      }
      process.stdout.write(`${found.targets.length} distinct server${found.targets.length === 1 ? '' : 's'} in ${found.files.length} file${found.files.length === 1 ? '' : 's'}\n`);
    });
}

/**
 * `scan --discover`: the discovered servers after those of the explicit files, the same server
 * once. A client file that cannot be used is in `skipped` (name: the client, source: the file),
 * so the scan's stderr lines and the report's `skipped` both carry it.
 */
export async function addDiscovered(loaded: LoadedTargets, quiet?: boolean): Promise<LoadedTargets> {
  const found = await discoverHere();
  if (found.files.length === 0) process.stderr.write('idemscan: --discover found no MCP client configuration (see `idemscan where`)\n');
  else if (!quiet) process.stderr.write(`idemscan: --discover found ${found.targets.length} server(s) in ${found.files.length} client file(s)\n`);
  const { mergeTargets } = await import('../targets/discover/index.js');
  return { targets: mergeTargets(loaded.targets, found.targets), skipped: [...loaded.skipped, ...found.skipped] };
}
