/** `scan --discover`: what app/discover/discover.ts found added to the scan, and said through the caller's `Say`. */
import type { DiscoverOptions, LoadedTargets } from './discover.js';
import { idemscanCommand } from '../../model/invocation.js';
import { plural } from '../../model/verdicts.js';
import { joinShown, msg, show } from '../../render/message.js';
import type { Say } from '../say.js';

export const PROJECT_FLAG = '--project-configs';

export const servers = (n: number) => plural(n, 'server');

export async function addDiscovered(
  loaded: LoadedTargets,
  flags: DiscoverOptions,
  { note, tell }: Pick<Say, 'note' | 'tell'>,
): Promise<LoadedTargets> {
  // Lazy: cli/where-command.ts, loaded at start, imports this module.
  const found = await (await import('./discover.js')).withDiscovered(loaded, flags);
  if (found.files === 0) tell(msg`--discover found no MCP client configuration (see \`${idemscanCommand('where')}\`)`);
  else note(msg`--discover found ${found.servers} server(s) in ${found.files} client file(s)`);
  const { leftOut } = found;
  // Even with -q, one line each: the client starts these, and neither flag alone gets them scanned.
  for (const s of found.unexpanded)
    tell(
      msg`skipped ${show.name(s.name)} (${show.path(s.source)}): ${show.reason(s.reason)}; a project-scope server, scanned only with ${PROJECT_FLAG} --allow-env ${show.name(s.unexpanded ?? 'VAR')}`,
    );
  if (leftOut.servers > 0) {
    // Even with -q: the scan is less than the clients configure here, and this says why.
    const files = leftOut.files;
    const shown = msg`${joinShown(
      files.slice(0, 3).map((f) => msg`${show.path(f)}`),
      ', ',
    )}${files.length > 3 ? `, ${files.length - 3} more` : ''}`;
    tell(msg`skipped ${servers(leftOut.servers)} of project-scope configs (${shown}): scan them with ${PROJECT_FLAG}`);
  }
  return found.loaded;
}
