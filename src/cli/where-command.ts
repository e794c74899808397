/** `idemscan where`: the MCP client files found here, and the `--discover` step of `scan`. */
import os from 'node:os';
import type { Command } from '@commander-js/extra-typings';
import type { Shown } from '../model/shown.js';
import type { FoundFile, LoadedTargets } from '../app/discover/discover.js';
import { PROJECT_FLAG, servers } from '../app/discover/discovered.js';
import { msg, show } from '../render/message.js';

function fileLine(f: FoundFile): Shown {
  if (f.error) return msg`error: ${show.reason(f.error)}`;
  const parts = [servers(f.servers)];
  if (f.skipped) parts.push(`${f.skipped} skipped`);
  if (f.leftOut) parts.push(`${f.leftOut} left out (bounded)`);
  if (f.projectServers > 0) {
    const some = f.projectServers === f.servers ? '' : `${f.projectServers} of them `;
    parts.push(`${some}project-scoped: scanned only with ${PROJECT_FLAG}`);
  }
  return msg`${parts.join(', ')}`;
}

/** Each skipped entry of the file under its line, with its reason (the file's own error is its line). */
function skippedLines(f: FoundFile, skipped: LoadedTargets['skipped']): string {
  return skipped
    .filter((s) => s.source === f.file && s.reason !== f.error)
    .map((s) => msg`    skipped ${show.name(s.name)}: ${show.reason(s.reason)}\n`.text)
    .join('');
}

export function registerWhere(program: Command): void {
  program
    .command('where')
    .description(
      `list the MCP client configuration files found in HOME and the current folder (what scan --discover reads; project-scope files with ${PROJECT_FLAG})`,
    )
    .option('--json', 'print the list as JSON')
    .action(async (flags) => {
      const found = await (await import('../app/discover/discover.js')).discoverHere([], true);
      if (flags.json) {
        const skipped = found.skipped.map(({ name, source, reason }) => ({ name, source, reason }));
        process.stdout.write(
          JSON.stringify({ files: found.files, servers: found.targets.length, skipped }, null, 2) + '\n',
        );
        return;
      }
      if (found.files.length === 0) {
        process.stdout.write(
          msg`No MCP client configuration found in ${show.path(os.homedir())} or ${show.path(process.cwd())}.\n`.text,
        );
        return;
      }
      for (const f of found.files)
        process.stdout.write(
          msg`${f.client.padEnd(18)} ${f.scope.padEnd(7)} ${show.path(f.file)}  ${fileLine(f)}\n`.text +
            skippedLines(f, found.skipped),
        );
      process.stdout.write(
        `${servers(found.targets.length).replace('server', 'distinct server')} in ${found.files.length} file${found.files.length === 1 ? '' : 's'}\n`,
      );
    });
}
