/**
 * The run index's files written (app/run-index.ts makes them), for `idemscan index` and
 * `merge --index`, each named on stderr; and what merge and `--compare latest` read of it. Not a
 * command module: the commands that need it import it.
 */
import { indexFiles, withMergedRun, type RunIndex } from '../app/run-index.js';
import { InputError } from '../model/input-error.js';
import type { Report } from '../model/schema.js';
import { msg, show } from '../render/message.js';
import { codeOf, writeOutputFile, wroteLine } from '../app/output.js';
import { note } from './say.js';

export { latestReport, readIndex, runDirOf } from '../app/run-index.js';

/** A file of the index or the README written, or a usage error naming it. */
export async function writeIndexFile(dest: string, data: string): Promise<void> {
  await writeOutputFile(dest, data).catch((err: unknown) => {
    throw new InputError(msg`cannot write ${show.path(dest)} (${codeOf(err)})`);
  });
  note(wroteLine(dest));
}

export async function writeIndex(root: string, index: RunIndex): Promise<void> {
  for (const { dest, data } of indexFiles(root, index)) await writeIndexFile(dest, data);
}

/** After merge wrote ROOT/RUN: its entry added to (or replaced in) the index, both files rewritten. */
export async function updateIndex(root: string, run: string, report: Report): Promise<void> {
  await writeIndex(root, await withMergedRun(root, run, report));
}
