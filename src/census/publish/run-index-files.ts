/**
 * The run index's files written (run-index.ts makes them), for `idemscan index` and
 * `merge --index`, each named through the caller's `note`; the server pages under ROOT/servers/
 * (run-index-servers.ts) in one line.
 */
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

/**
 * ROOT/index.json, ROOT/index.html and a page per server of `history` under ROOT/servers/. The
 * index page shows the behaviour table's section when ROOT/behaviour/behaviour.json is a valid
 * table: `behaviour` as the caller read it (rebuildIndex and updateIndex say what was wrong with a
 * bad one), else read here, a bad one left off without a word.
 */
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

/**
 * After merge wrote ROOT/RUN: its entry added to (or replaced in) the index, both files rewritten,
 * and the server pages, from this run's report and every earlier run's, read again one at a time.
 */
export async function updateIndex(root: string, run: string, report: Report, note: Note): Promise<void> {
  const index = await withMergedRun(root, run, report);
  const history = await historyOf(root, index, { dir: run, report }, (file, why) =>
    note(msg`server pages: left out ${show.path(file)}: ${why}`),
  );
  const behaviour = await readBehaviour(root, (file, why) =>
    note(msg`left the behaviour table ${show.path(file)} off the index page: ${why}`),
  );
  await writeIndex(root, index, history, note, { behaviour });
}
