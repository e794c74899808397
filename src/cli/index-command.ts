/**
 * `idemscan index ROOT [--readme README.md]`: rebuilds ROOT/index.json, ROOT/index.html and the
 * server pages ROOT/servers/*.html from the run directories (census/publish/run-index.ts), and with
 * `--readme` writes the README's census block from the newest run. A run whose report.json is bad is skipped with a warning naming the file.
 */
import { readmeWithCensus, rebuildIndex } from '../census/publish/run-index.js';
import { msg, show } from '../render/message.js';
import { writeIndex, writeIndexFile } from '../census/publish/run-index-files.js';
import { note, warn } from './say.js';
import type { IndexFlags } from './flags.js';

export async function indexCommand(root: string, flags: IndexFlags): Promise<void> {
  const rebuilt = await rebuildIndex(root, (file, why) => warn(msg`skipped ${show.path(file)}: ${why}`));
  await writeIndex(root, rebuilt.index, rebuilt.history, note, { behaviour: rebuilt.behaviour });
  if (flags.readme !== undefined)
    await writeIndexFile(flags.readme, await readmeWithCensus(root, flags.readme, rebuilt), note);
  const { indexed, skipped } = rebuilt;
  note(
    msg`indexed ${indexed} run${indexed === 1 ? '' : 's'} in ${show.path(root)}${skipped ? `; ${skipped} skipped` : ''}`,
  );
}
