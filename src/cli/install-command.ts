/** `idemscan install FILES`: the packages of target files into the cache, shown as they finish (app/packages/install.ts). */
import { install, type InstallEvent } from '../app/packages/install.js';
import { msg, show } from '../render/message.js';
import { EXIT } from '../shell/exit.js';
import type { InstallFlags } from './flags.js';
import { InstallProgress } from './progress.js';
import { tell, warn } from '../shell/say.js';

export async function installCommand(files: string[], flags: InstallFlags): Promise<void> {
  let progress: InstallProgress | undefined;
  const onEvent = (e: InstallEvent) => {
    switch (e.type) {
      case 'skipped':
        return tell(
          msg`skipped ${show.name(e.target.name)} (${show.path(e.target.source)}): ${show.reason(e.target.reason)}`,
        );
      case 'refused':
        return tell(msg`${show.path(e.spec)}: ${show.message(e.error)}`);
      case 'warning':
        return warn(msg`${e.message}`);
      case 'start':
        // Each package as it finishes on stdout; on a terminal a bar with counts on stderr.
        progress = new InstallProgress(e.packages, process.stdout, process.stderr);
        return;
      case 'done':
        progress?.onInstalled(e.result);
        if (e.result.note) progress?.message(`idemscan: ${e.result.note}`);
        if (!e.result.ok) progress?.message(e.result.error ?? '');
    }
  };
  const { cacheDir, results, refused } = await install(files, flags, onEvent);
  progress?.stop();
  process.stdout.write(`${results.filter((r) => r.ok).length}/${results.length} packages in ${cacheDir}\n`);
  if (results.some((r) => !r.ok) || refused > 0) process.exitCode = EXIT.allFailed;
}
