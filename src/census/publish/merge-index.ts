/** `merge --index ROOT` and `merge --compare latest`: the run index's part of a merge (app/saved/merge-run.ts). */
import type { MergeIndex } from '../../app/saved/merge-run.js';
import type { Say } from '../../app/say.js';
import { checkCompare, earlierReport } from './compare-latest.js';
import { readIndex, runDirOf } from './run-index.js';
import { updateIndex } from './run-index-files.js';
import { msg, show } from '../../render/message.js';
import type { Shown } from '../../model/shown.js';

export interface MergeIndexSettings {
  out?: string;
  /** `OLD.json`, or `latest`: the newest earlier run of `--index`. */
  compare?: string;
  index?: string;
}

/** Said after every merge into an index, so a trial run that became a published root's newest is seen at once. */
function newestLine(root: string, run: string, newest: string | undefined): Shown {
  return newest === run
    ? msg`${run} is now the newest run of the index ${show.path(root)}: \`idemscan index ${show.path(root)} --readme FILE\` writes its census block`
    : msg`${run} added to the index ${show.path(root)}; its newest run is still ${newest ?? 'none'}`;
}

export function mergeIndex(flags: MergeIndexSettings, note: Say['note']): MergeIndex {
  const root = flags.index;
  let run: string | undefined;
  return {
    check: async () => {
      if (root !== undefined) {
        run = runDirOf(root, flags.out);
        await readIndex(root);
      }
      checkCompare(flags.compare, root);
    },
    earlier: (report, warn) => earlierReport(flags.compare, root, run, note)(report, warn),
    add: async (report) => {
      if (root === undefined || run === undefined) return;
      const index = await updateIndex(root, run, report, note);
      note(newestLine(root, run, index.runs[0]?.dir));
    },
  };
}
