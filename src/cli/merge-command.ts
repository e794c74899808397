/**
 * `idemscan merge A.json B.json ... [--json PATH | --out DIR] [--index ROOT] [--compare OLD|latest]`:
 * shard reports into one report (app/saved/merge-run.ts). With `--index ROOT`, `--out` is a run
 * directory ROOT/RUN and the run's entry goes into ROOT/index.json and index.html
 * (census/publish/merge-index.ts).
 * Exit codes: 0 merged, 2 usage error, an unreadable or invalid report or index file, or reports
 * that must not be merged (different schema versions, a server in two reports).
 */
import { mergeRun, type MergeFlags } from '../app/saved/merge-run.js';
import type { MergeIndexFlags } from '../census/publish/merge-index.js';
import { msg } from '../render/message.js';
import { EXIT } from './exit.js';
import { plural } from '../model/verdicts.js';
import * as say from './say.js';

export async function mergeCommand(
  files: string[],
  flags: MergeFlags & MergeIndexFlags & { quiet?: boolean },
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
