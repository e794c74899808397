/** `audit --tools FILE`: the saved tools/list results of FILE as static targets, or an input error saying what the file should hold. */
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import type { Target } from '../targets/types.js';

export async function staticTargets(file: string, words: string[], name: string | undefined): Promise<Target[]> {
  if (words.length > 0)
    throw new InputError(
      msg`--tools reads a saved tools/list result: give no command or URL as well (got "${show.url(words[0]!)}")`,
    );
  const [{ readBounded }, { savedTargets }] = await Promise.all([
    import('../targets/load.js'),
    import('../targets/saved-tools.js'),
  ]);
  const targets = savedTargets(await readBounded(file, '--tools'), file);
  if (!targets) {
    throw new InputError(
      'not a saved tools/list result (expected {"tools": [...]} with optional "capabilities" and "serverInfo", a bare array of tools, or one such result per line)',
      { field: '--tools', file },
    );
  }
  // --name names the server of a one-result file, as it does a command's.
  if (name !== undefined && targets.length === 1) targets[0]!.name = name;
  return targets;
}
