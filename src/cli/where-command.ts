/** `idemscan where`: the MCP client files found here, and the `--discover` step of `scan`. */
import type { Command } from '@commander-js/extra-typings';
import { PROJECT_FLAG } from '../app/discover/discovered.js';

export function registerWhere(program: Command): void {
  program
    .command('where')
    .description(
      `list the MCP client configuration files found in HOME and the current folder (what scan --discover reads; project-scope files with ${PROJECT_FLAG})`,
    )
    .option('--json', 'print the list as JSON')
    // Loaded when run: `--version` and the other commands load no line-wrapping.
    .action(async (flags) => (await import('./where-lines.js')).printWhere(flags));
}
