/**
 * `--suppress FILE` (default: `.idemscan-suppress.json` in the working directory, when there): read
 * and checked before the scan (a bad file is a usage error naming the entry), applied after it.
 * The zod schema is imported only when there is a file: an audit without one loads no zod.
 */
import { access } from 'node:fs/promises';
import { DEFAULT_SUPPRESS_FILE } from '../model/formats.js';
import type { SuppressEntry, Suppressions } from '../model/suppress.js';
import type { Report } from '../model/schema.js';
import { safeText } from '../render/terminal.js';
import { UsageError } from './exit.js';

/** The suppressions to apply; none when no file is named and the default file is absent. */
export async function loadSuppressOrUsage(flag: string | undefined): Promise<Suppressions | undefined> {
  const file = flag ?? DEFAULT_SUPPRESS_FILE;
  if (
    flag === undefined &&
    !(await access(file).then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  const [{ parseSuppressions }, { ReportFileError, readText }] = await Promise.all([
    import('../compare/suppress.js'),
    import('../compare/read.js'),
  ]);
  try {
    return parseSuppressions(await readText(file), file);
  } catch (err) {
    if (err instanceof ReportFileError) throw new UsageError(`--suppress ${safeText(err.message, 1_000)}`);
    throw err;
  }
}

const label = (index: number, e: SuppressEntry) =>
  `suppressions[${index}] (rule ${safeText(e.rule, 120)}${e.tool ? `, tool ${safeText(e.tool, 80)}` : ''}${e.server ? `, server ${safeText(e.server, 80)}` : ''})`;

/** Marks the report's findings; an expired entry is always said (it changed what the gate counts), an unused one unless -q. */
export async function applySuppressFile(
  report: Report,
  suppressions: Suppressions,
  quiet: boolean | undefined,
  now?: Date,
): Promise<void> {
  const { applySuppressions } = await import('../compare/suppress.js');
  const outcome = applySuppressions(report, suppressions, now);
  const file = safeText(suppressions.file, 300);
  for (const { index, entry } of outcome.expired) {
    process.stderr.write(
      `idemscan: warning: ${file}: ${label(index, entry)} expired on ${entry.expires}; it no longer applies (renew or remove it)\n`,
    );
  }
  if (quiet) return;
  for (const { index, entry } of outcome.unused)
    process.stderr.write(`idemscan: warning: ${file}: ${label(index, entry)} matched no finding\n`);
  if (outcome.applied > 0)
    process.stderr.write(
      `idemscan: ${outcome.applied} finding${outcome.applied === 1 ? '' : 's'} suppressed by ${file}\n`,
    );
}
