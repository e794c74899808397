/** `audit --tools FILE`: the saved tools/list results of FILE as static targets, or a usage error saying what the file should hold. */
import { safeText } from '../render/terminal.js';
import type { Target } from '../targets/types.js';
import { UsageError } from './exit.js';

export async function staticTargets(file: string, words: string[], name: string | undefined): Promise<Target[]> {
  if (words.length > 0)
    throw new UsageError(
      `--tools reads a saved tools/list result: give no command or URL as well (got "${safeText(words[0]!, 200)}")`,
    );
  const [{ readBounded }, { savedTargets }, { TargetFileError }] = await Promise.all([
    import('../targets/load.js'),
    import('../targets/saved-tools.js'),
    import('../targets/types.js'),
  ]);
  let targets: Target[] | undefined;
  try {
    targets = savedTargets(await readBounded(file), file);
  } catch (err) {
    if (err instanceof TargetFileError) throw new UsageError(`--tools ${err.message}`);
    throw err;
  }
  if (!targets) {
    throw new UsageError(
      `--tools ${safeText(file, 300)}: not a saved tools/list result (expected {"tools": [...]} with optional "capabilities" and "serverInfo", a bare array of tools, or one such result per line)`,
    );
  }
  // --name names the server of a one-result file, as it does a command's.
  if (name !== undefined && targets.length === 1) targets[0]!.name = name;
  return targets;
}
