/** `--compare latest`: never the report's own run directory. */
import path from 'node:path';
import { InputError } from '../../model/input-error.js';
import type { Report } from '../../model/schema.js';
import type { Shown } from '../../model/shown.js';
import { msg, show } from '../../render/message.js';
import type { Earlier } from '../../app/saved/saved-report.js';

/** `--compare latest` reads the index `--index` names. */
export function checkCompare(compare: string | undefined, index: string | undefined): void {
  if (compare === 'latest' && index === undefined)
    throw new InputError('--compare latest needs --index ROOT (the directory of index.json)');
}

/** The run directory under `root` that `file` is in (ROOT/RUN/report.json), if it is one. */
export function ownRunOf(root: string, file: string): string | undefined {
  const dir = path.dirname(path.resolve(file));
  return path.resolve(path.dirname(dir)) === path.resolve(root) ? path.basename(dir) : undefined;
}

/** Which run is "latest" is not always the one the user thinks, so `note` names it. */
export function earlierReport(
  compare: string | undefined,
  root: string | undefined,
  ownRun: string | undefined,
  note: (line: Shown) => void,
) {
  return async (report: Report, warn: (w: Shown) => void): Promise<Earlier> => {
    if (compare !== 'latest') return compare;
    const { latestReport } = await import('./run-index.js');
    const found = await latestReport(root!, report, ownRun, warn);
    if (found === undefined) {
      warn(msg`--compare latest: ${show.path(root!)} has no earlier run; no trend section`);
      return undefined;
    }
    const run = ownRunOf(root!, found.file);
    note(
      msg`--compare latest: comparing with the run ${show.path(path.dirname(found.file))} (started ${show.name(found.report.startedAt)})`,
    );
    return run === undefined ? found : { ...found, run };
  };
}
