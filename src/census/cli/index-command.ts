/** `idemscan index ROOT [--readme README.md]`: rebuild the run index and the server pages; a bad run is skipped. */
import { readmeWithCensus, rebuildIndex } from '../publish/run-index.js';
import { msg, show } from '../../render/message.js';
import { writeIndex, writeIndexFile } from '../publish/run-index-files.js';
import { note, warn } from '../../shell/say.js';
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
