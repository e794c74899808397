/**
 * The run index's files written (app/run-index.ts makes them), for `idemscan index` and
 * `merge --index`, each named through the caller's `note`.
 */
import { indexFiles, withMergedRun, type RunIndex } from './run-index.js';
import { InputError } from '../model/input-error.js';
import type { Report } from '../model/schema.js';
import { msg, show } from '../render/message.js';
import { codeOf, writeOutputFile, wroteLine } from './output.js';
import type { Say } from './say.js';

type Note = Say['note'];

/** A file of the index or the README written, or a usage error naming it. */
export async function writeIndexFile(dest: string, data: string, note: Note): Promise<void> {
  await writeOutputFile(dest, data).catch((err: unknown) => {
    throw new InputError(msg`cannot write ${show.path(dest)} (${codeOf(err)})`);
  });
  note(wroteLine(dest));
}

export async function writeIndex(root: string, index: RunIndex, note: Note): Promise<void> {
  for (const { dest, data } of indexFiles(root, index)) await writeIndexFile(dest, data, note);
}

/** After merge wrote ROOT/RUN: its entry added to (or replaced in) the index, both files rewritten. */
export async function updateIndex(root: string, run: string, report: Report, note: Note): Promise<void> {
  await writeIndex(root, await withMergedRun(root, run, report), note);
}
