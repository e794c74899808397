/** The census commands' flags, light enough to declare before a command is chosen. */
import type { Command } from '@commander-js/extra-typings';
import { DEFAULT_REGISTRY } from '../registry/default-registry.js';
import { DEFAULTS } from '../../model/limits.js';
import { cacheDir, intOption, quiet, repeatable, timeout, type FlagsOf } from '../../shell/options.js';

/** `probe-census [DIR]`: the plan library, always under the sandbox (there is no flag to leave it). */
export const probeCensusFlags = (cmd: Command) =>
  cmd
    .addOption(
      repeatable('--only <name>', 'probe only these library servers (NAME of DIR/NAME.json)', { commas: true }),
    )
    .option(
      '--out <dir>',
      'directory for behaviour.json, .md, .html and reports/NAME.json (default: output/ecosystem/behaviour; required with --only)',
    )
    .addOption(timeout('bound on connecting and listing, then on each call'))
    .option('--no-install', 'do not install missing pinned packages (their servers then fail)')
    .addOption(cacheDir())
    .option('--keep-scratch', "keep each server's scratch directory (its test backend) and say where")
    .option(
      '--auto',
      "without plans: call every tool of each stdio server of --targets twice, each on a fresh server, with arguments made from its schema (probe --auto); the rows join the table beside the plan library's",
    )
    .option('--targets <file>', 'with --auto: the target list to probe, e.g. targets/npm-census.json')
    .option('--shard <i/n>', 'with --auto: probe only shard I of N (as scan --shard); shards fill one --out')
    .addOption(intOption('--concurrency <n>', 'with --auto: servers probed at once', 2))
    .addOption(
      intOption(
        '--budget <ms>',
        "with --auto: each server's experiments together; the tools not reached are not-probed",
        DEFAULTS.autoBudgetMs,
      ),
    )
    .addOption(quiet('no line per server; what will be called, mismatches and errors are printed anyway'));

const REGISTRY = `(default: ${DEFAULT_REGISTRY})`;

export const pullFlags = (cmd: Command) =>
  cmd
    .option('--base-url <url>', `the registry ${REGISTRY}`)
    .option(
      '--updated-since <time>',
      'ask only for servers updated since TIME (RFC 3339; default: the pulledAt of an existing --out file)',
    )
    .option('--out <file>', 'the target file to write', 'registry-servers.json')
    .addOption(quiet('no progress on stderr'));

export const refreshFlags = (cmd: Command) =>
  cmd
    .option('--base-url <url>', `the MCP Registry asked for registry entries ${REGISTRY}`)
    .addOption(cacheDir())
    .option('--json', 'print the changes as JSON')
    .option('--dry-run', 'print what would change; do not write the file');

export const indexFlags = (cmd: Command) =>
  cmd
    .option(
      '--readme <file>',
      'also write the census block of the newest run into FILE, between <!-- census:start --> and <!-- census:end -->',
    )
    .addOption(quiet('no wrote lines on stderr'));

/** The published census before the wide one covered the 125 most downloaded servers that start. */
const DEFAULT_TOP = 125;

export const statsFlags = (cmd: Command) =>
  cmd
    .addOption(
      intOption('--top <n>', 'also count the N scanned servers with the most monthly downloads alone', DEFAULT_TOP),
    )
    .option('--out <dir>', "where stats.json and stats.md go (default: the report's directory)")
    .addOption(quiet('no wrote lines on stderr'));

export type ProbeCensusFlags = FlagsOf<typeof probeCensusFlags>;
export type PullFlags = FlagsOf<typeof pullFlags>;
export type RefreshFlags = FlagsOf<typeof refreshFlags>;
export type IndexFlags = FlagsOf<typeof indexFlags>;
export type StatsFlags = FlagsOf<typeof statsFlags>;
