/**
 * The run index on disk (`ROOT/index.json` and `ROOT/index.html`; compare/run-index.ts has the
 * format), read and written for `idemscan index`, `merge --index` and `--compare latest`. Not a
 * command module: the commands that need it import it. A bad index.json is a usage error naming
 * the file and the field: it is read as untrusted input.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readReportFile, ReportFileError, SAVED_BOUNDS, versionedJson, type LoadedReport } from '../compare/read.js';
import { InputError } from '../model/input-error.js';
import type { Shown } from '../model/shown.js';
import {
  INDEX_FILE,
  INDEX_PAGE,
  INDEX_VERSION,
  isRunDirName,
  RunIndex,
  emptyIndex,
  runEntry,
  runsBefore,
  withRun,
} from '../compare/run-index.js';
import { readBoundedText } from '../io/read.js';
import { RUN_FILES } from '../model/formats.js';
import type { Report } from '../model/schema.js';
import { describeZodError } from '../model/zod-errors.js';
import { renderIndexPage } from '../render/html/index-page.js';
import { msg, show } from '../render/message.js';
import { codeOf, writeOutputFile, wroteLine } from '../app/output.js';
import { note } from './say.js';

/** ROOT/index.json, validated; none yet is an empty index. */
export async function readIndex(root: string): Promise<RunIndex> {
  const file = path.join(root, INDEX_FILE);
  const read = await readBoundedText(file, { maxBytes: SAVED_BOUNDS.maxBytes });
  if ('error' in read) {
    if (read.code === 'ENOENT') return emptyIndex();
    throw new ReportFileError(file, read.error);
  }
  const parsed = RunIndex.safeParse(versionedJson(read.text, file, 'run index', 'indexVersion', INDEX_VERSION));
  if (!parsed.success) throw new ReportFileError(file, `invalid run index: ${describeZodError('', parsed.error)}`);
  return parsed.data;
}

export async function writeIndex(root: string, index: RunIndex): Promise<void> {
  for (const [name, data] of [
    [INDEX_FILE, JSON.stringify(index, null, 2) + '\n'],
    [INDEX_PAGE, renderIndexPage(index)],
  ] as const) {
    const dest = path.join(root, name);
    await writeOutputFile(dest, data).catch((err: unknown) => {
      throw new InputError(msg`cannot write ${show.path(dest)} (${codeOf(err)})`);
    });
    note(wroteLine(dest));
  }
}

/**
 * `--index ROOT` with `--out DIR`: DIR must be a run directory right under ROOT, so the index can
 * link it by its name. Returns that name.
 */
export function runDirOf(root: string, out: string | undefined): string {
  if (out === undefined)
    throw new InputError('--index needs --out ROOT/RUN (the run directory this merge writes, under the index root)');
  const name = path.basename(path.resolve(out));
  if (path.dirname(path.resolve(out)) !== path.resolve(root) || !isRunDirName(name)) {
    throw new InputError(
      msg`--out ${show.path(out)} is not a run directory right under --index ${show.path(root)} (expected ${show.path(path.join(root, 'YYYY-MM-DD'))})`,
    );
  }
  return name;
}

/** The report files present in a run directory. */
export async function filesIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return RUN_FILES.filter((f) => names.includes(f));
}

/** After merge wrote ROOT/RUN: its entry added to (or replaced in) the index, both files rewritten. */
export async function updateIndex(root: string, run: string, report: Report): Promise<void> {
  const index = await readIndex(root);
  const made = runEntry(run, report, await filesIn(path.join(root, run)));
  if ('error' in made) throw new InputError(`the merged report cannot be indexed: ${made.error}`, { field: '--index' });
  await writeIndex(root, withRun(index, made.entry));
}

/**
 * `--compare latest`: the report of the newest run in the index that started before this report,
 * other than this run's own directory; undefined when there is none (the first run). A run whose
 * report.json cannot be read or is no valid report is skipped, naming the file, for the one before it.
 */
export async function latestReport(
  root: string,
  report: Report,
  ownRun: string | undefined,
  warn: (line: Shown) => void,
): Promise<LoadedReport | undefined> {
  for (const entry of runsBefore(await readIndex(root), report.startedAt, ownRun)) {
    const file = path.join(root, entry.dir, 'report.json');
    try {
      return await readReportFile(file);
    } catch (err) {
      if (!(err instanceof ReportFileError)) throw err;
      warn(msg`--compare latest: skipped ${show.path(file)}: ${err.detail}`);
    }
  }
  return undefined;
}
