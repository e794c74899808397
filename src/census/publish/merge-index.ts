/** `merge --index ROOT` and `merge --compare latest`: the run index's part of a merge (app/saved/merge-run.ts). */
import type { MergeIndex } from '../../app/saved/merge-run.js';
import type { Say } from '../../app/say.js';
import { checkCompare, earlierReport } from './compare-latest.js';
import { readIndex, runDirOf } from './run-index.js';
import { updateIndex } from './run-index-files.js';

export interface MergeIndexSettings {
  out?: string;
  /** `OLD.json`, or `latest`: the newest earlier run of `--index`. */
  compare?: string;
  index?: string;
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
      if (root !== undefined && run !== undefined) await updateIndex(root, run, report, note);
    },
  };
}
