/** The census's commands, registered by cli/main.ts where they sit in the help. */
import type { Command } from '@commander-js/extra-typings';
import { indexFlags, probeCensusFlags, pullFlags, refreshFlags, statsFlags } from './flags.js';

export function registerProbeCensus(program: Command): void {
  probeCensusFlags(program.command('probe-census'))
    .description(
      'probe every server of a plan library (DIR/NAME.json) under --sandbox, one at a time, and write the behaviour table; with --auto, every tool of the stdio servers of a target list, without plans (real effects, in scratch directories: docs/PROBE.md)',
    )
    .argument('[dir]', 'the plan library', 'probes')
    .action(async (dir, flags) => (await import('./probe-census-command.js')).probeCensusCommand(dir, flags));
}

export function registerPublishing(program: Command): void {
  indexFlags(program.command('index'))
    .description(
      'rebuild the index of published runs (ROOT/index.json and index.html) from the run directories ROOT/*/report.json',
    )
    .argument('<root>', 'the directory of the runs, e.g. output/ecosystem')
    .action(async (root, flags) => (await import('./index-command.js')).indexCommand(root, flags));
  statsFlags(program.command('stats'))
    .description(
      'the census statistics of a report (annotation and hint shares, verdicts raw and by downloads, keys by name, contradicting hints, by server size), for all its servers and the --top most downloaded: stats.json and stats.md',
    )
    .argument('<report>', 'a report.json, e.g. output/ecosystem/2026-12-02/report.json')
    .action(async (file, flags) => (await import('./stats-command.js')).statsCommand(file, flags));
  const registry = program.command('registry').description('the MCP Registry: pull its servers into a target file');
  pullFlags(registry.command('pull'))
    .description(
      'page the MCP Registry (GET /v0.1/servers) and write the latest active version of each server as a target file scan reads (an existing --out file is updated with what changed)',
    )
    .action(async (flags) => (await import('./registry-command.js')).pullCommand(flags));
  const targets = program.command('targets').description('work on target files');
  refreshFlags(targets.command('refresh'))
    .description(
      're-pin every npm and MCP Registry entry of a target file to the latest version its registry reports, and write the file back (old -> new on stdout)',
    )
    .argument('<file>', 'a target file: an idemscan list ("npm": "name@1.2.3"), a registry pull file or a server.json')
    .action(async (file, flags) => (await import('./refresh-command.js')).refreshCommand(file, flags));
}

/** Shown after each census command's help (cli/examples.ts). */
export const CENSUS_EXAMPLES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  'probe-census': [
    ['the plan library under probes/, each server sandboxed, the table in output/ecosystem/behaviour', 'probe-census'],
    ['two of its servers, the table elsewhere', 'probe-census probes --only memory,filesystem --out behaviour'],
    [
      'every tool of the census list without plans, shard 1 of 8, beside the library rows',
      'probe-census --auto --targets targets/npm-census.json --shard 1/8',
    ],
  ],
  index: [
    ['rebuild index.json and index.html of the runs under a folder', 'index runs'],
    ['and the census block of the newest run in a README', 'index runs --readme README.md'],
  ],
  stats: [
    ['the census statistics of a run, into its folder', 'stats runs/2026-12-02/report.json'],
    ['the 50 most downloaded beside all, elsewhere', 'stats runs/2026-12-02/report.json --top 50 --out stats'],
  ],
  registry: [['the MCP Registry as a target file', 'registry pull --out registry.json']],
  'registry pull': [
    ['every latest active server of the MCP Registry as a target file', 'registry pull --out registry.json'],
    ['then scan it', 'scan registry.json --format json,csv'],
  ],
  targets: [['re-pin a list to the latest versions', 'targets refresh mcp.json --dry-run']],
  'targets refresh': [
    ['what would change, without writing', 'targets refresh mcp.json --dry-run'],
    ['re-pin every npm and registry entry, writing the file back', 'targets refresh mcp.json'],
  ],
};
