/** `${VAR}` reads only `--allow-env` variables: a shared list must not choose which secrets go where. */
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
