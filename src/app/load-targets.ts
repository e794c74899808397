/**
 * The targets of target files, as every command that reads them loads them (a file that cannot be
 * read is a TargetFileError naming it: exit 2). Their `${VAR}` read only the `--allow-env`
 * variables: a list from a registry, a pull request or a colleague does not choose which of this
 * machine's secrets go into a command line, a header or a URL.
 */
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import type { LoadedTargets } from '../targets/types.js';

/** `--allow-env` names, each a variable name (a typo would silently allow nothing). */
export async function loadTargets(files: string[], allowEnv: readonly string[] = []): Promise<LoadedTargets> {
  const [{ loadTargetFiles }, { allowedEnv, ENV_NAME }] = await Promise.all([
    import('../targets/load.js'),
    import('../targets/expand.js'),
  ]);
  for (const n of allowEnv)
    if (!ENV_NAME.test(n)) throw new InputError(msg`--allow-env "${show.name(n)}": not an environment variable name`);
  return loadTargetFiles(files, allowedEnv(process.env, [...allowEnv]));
}
