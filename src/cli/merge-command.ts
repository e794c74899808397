/** `idemscan merge A.json B.json ...`: shard reports into one, and with `--index` the run into the index. */
import { mergeRun, type MergeSettings } from '../app/saved/merge-run.js';
import type { MergeIndexSettings } from '../census/publish/merge-index.js';
import { msg } from '../render/message.js';
import { EXIT } from '../shell/exit.js';
import { plural } from '../model/verdicts.js';
import * as say from '../shell/say.js';

export async function mergeCommand(
  files: string[],
  flags: MergeSettings & MergeIndexSettings & { quiet?: boolean },
): Promise<void> {
  const index =
    flags.index !== undefined || flags.compare === 'latest'
      ? (await import('../census/publish/merge-index.js')).mergeIndex(flags, say.note)
      : undefined;
  const report = await mergeRun(files, flags, { print: (t) => void process.stdout.write(t), say }, index);
  const s = report.summary;
  say.note(
    msg`merged ${plural(files.length, 'report')}: ${plural(s.servers, 'server')} (${s.serversOk} ok, ${s.serversFailed} failed), ${plural(s.tools, 'tool')}`,
  );
  process.exitCode = EXIT.ok;
}
