/** The run index's files written, each named through the caller's `note`. */
import path from 'node:path';
import { indexFiles, withMergedRun, type RunIndex } from './run-index.js';
import { historyOf, serverLinks, serverPageFiles } from './run-index-servers.js';
import { behaviourHtmlOf, readBehaviour, type BehaviourRead } from './run-index-behaviour.js';
import { SERVERS_DIR } from './index-format.js';
import type { ServerHistory } from './server-history.js';
import { InputError } from '../../model/input-error.js';
import type { Report } from '../../model/schema.js';
import { msg, show } from '../../render/message.js';
import { codeOf, shownFile, writeOutputFile, wroteLine } from '../../app/output.js';
import type { Say } from '../../app/say.js';

type Note = Say['note'];

/** A file of the index or the README written, or a usage error naming it. */
export async function writeIndexFile(dest: string, data: string, note?: Note): Promise<void> {
  await writeOutputFile(dest, data).catch((err: unknown) => {
    throw new InputError(msg`cannot write ${show.path(dest)} (${codeOf(err)})`);
  });
  note?.(wroteLine(dest));
}

/** A bad behaviour table read here is left off silently; the callers that read it report it. */
export async function writeIndex(
  root: string,
  index: RunIndex,
  history: ServerHistory,
  note: Note,
  opts: { behaviour?: BehaviourRead } = {},
): Promise<void> {
  const links = serverLinks(index, history);
  const behaviour = behaviourHtmlOf('behaviour' in opts ? opts.behaviour : await readBehaviour(root));
  for (const { dest, data } of indexFiles(root, index, links, behaviour)) await writeIndexFile(dest, data, note);
  for (const { dest, data } of serverPageFiles(root, index, history, links)) await writeIndexFile(dest, data);
  if (links.length > 0)
    note(
      msg`wrote ${links.length} server page${links.length === 1 ? '' : 's'} in ${shownFile(path.join(root, SERVERS_DIR))}`,
    );
}

/** Server pages are rebuilt from every run's report, read again one at a time; the index written is returned. */
export async function updateIndex(root: string, run: string, report: Report, note: Note): Promise<RunIndex> {
  const index = await withMergedRun(root, run, report);
  const history = await historyOf(root, index, { dir: run, report }, (file, why) =>
    note(msg`server pages: left out ${show.path(file)}: ${why}`),
  );
  const behaviour = await readBehaviour(root, (file, why) =>
    note(msg`left the behaviour table ${show.path(file)} off the index page: ${why}`),
  );
  await writeIndex(root, index, history, note, { behaviour });
  return index;
}
