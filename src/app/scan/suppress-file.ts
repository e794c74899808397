/** `--suppress FILE`, checked before the scan; zod is imported only when there is a file. */
import { access } from 'node:fs/promises';
import { DEFAULT_SUPPRESS_FILE } from '../../model/formats.js';
import { plural } from '../../model/verdicts.js';
import type { SuppressEntry, Suppressions } from '../../model/suppress.js';
import type { SuppressOutcome } from '../../compare/suppress.js';
import { msg, show } from '../../render/message.js';
import type { Say } from '../say.js';

/** None when no file is named and the default file is absent. */
export async function loadSuppress(flag: string | undefined): Promise<Suppressions | undefined> {
  const file = flag ?? DEFAULT_SUPPRESS_FILE;
  if (
    flag === undefined &&
    !(await access(file).then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  const [{ parseSuppressions }, { readText }] = await Promise.all([
    import('../../compare/suppress.js'),
    import('../../compare/read.js'),
  ]);
  return parseSuppressions(await readText(file, '--suppress'), file, '--suppress');
}

const label = (index: number, e: SuppressEntry) =>
  msg`suppressions[${index}] (${e.verdict ? msg`verdict ${e.verdict}` : msg`rule ${show.name(e.rule ?? '')}`}${e.tool ? msg`, tool ${show.name(e.tool)}` : ''}${e.server ? msg`, server ${show.name(e.server)}` : ''})`;

/** After the fold: an expired or unused entry is always said (a stale suppression hides nothing), the counts unless -q. */
export function tellSuppressions(file: string, outcome: SuppressOutcome, say: Say): void {
  const shown = msg`${show.path(file)}`;
  for (const { index, entry } of outcome.expired)
    say.warn(
      msg`${shown}: ${label(index, entry)} expired on ${entry.expires ?? ''}; it no longer applies (renew or remove it)`,
    );
  for (const { index, entry } of outcome.unused)
    say.warn(msg`${shown}: ${label(index, entry)} matched no ${entry.verdict ? 'tool' : 'finding'}`);
  if (outcome.applied > 0) say.note(msg`${plural(outcome.applied, 'finding')} suppressed by ${shown}`);
  if (outcome.accepted > 0) say.note(msg`${plural(outcome.accepted, 'tool verdict')} accepted by ${shown}`);
}
