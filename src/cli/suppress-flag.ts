/**
 * `--suppress FILE` (default: `.idemscan-suppress.json` in the working directory, when there): read
 * and checked before the scan (a bad file is an input error naming the entry: exit 2), applied after it.
 * The zod schema is imported only when there is a file: an audit without one loads no zod.
 */
import { access } from 'node:fs/promises';
import { DEFAULT_SUPPRESS_FILE } from '../model/formats.js';
import type { SuppressEntry, Suppressions } from '../model/suppress.js';
import type { Report } from '../model/schema.js';
import { msg, show } from '../render/message.js';
import { note, warn } from './say.js';

/** The suppressions to apply; none when no file is named and the default file is absent. A bad file is an InputError naming `--suppress`. */
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
    import('../compare/suppress.js'),
    import('../compare/read.js'),
  ]);
  return parseSuppressions(await readText(file, '--suppress'), file, '--suppress');
}

const label = (index: number, e: SuppressEntry) =>
  msg`suppressions[${index}] (rule ${show.name(e.rule)}${e.tool ? msg`, tool ${show.name(e.tool)}` : ''}${e.server ? msg`, server ${show.name(e.server)}` : ''})`;

/** Marks the report's findings; an expired entry is always said (it changed what the gate counts), an unused one unless -q. */
export async function applySuppressFile(report: Report, suppressions: Suppressions, now?: Date): Promise<void> {
  const { applySuppressions } = await import('../compare/suppress.js');
  const outcome = applySuppressions(report, suppressions, now);
  const file = msg`${show.path(suppressions.file)}`;
  for (const { index, entry } of outcome.expired)
    warn(
      msg`${file}: ${label(index, entry)} expired on ${entry.expires ?? ''}; it no longer applies (renew or remove it)`,
    );
  for (const { index, entry } of outcome.unused) note(msg`warning: ${file}: ${label(index, entry)} matched no finding`);
  if (outcome.applied > 0)
    note(msg`${outcome.applied} finding${outcome.applied === 1 ? '' : 's'} suppressed by ${file}`);
}
