/** The flags of `idemscan stats` (cli/stats-command.ts); main.ts declares them without loading the command. */
import type { Command } from '@commander-js/extra-typings';
import type { FlagsOf } from './flags.js';
import { intOption } from './options.js';
import { quiet } from './flags.js';

/** The published census before the wide one covered the 125 most downloaded servers that start. */
const DEFAULT_TOP = 125;

export const statsFlags = (cmd: Command) =>
  cmd
    .addOption(
      intOption('--top <n>', 'also count the N scanned servers with the most monthly downloads alone', DEFAULT_TOP),
    )
    .option('--out <dir>', "where stats.json and stats.md go (default: the report's directory)")
    .addOption(quiet('no wrote lines on stderr'));

export type StatsFlags = FlagsOf<typeof statsFlags>;
