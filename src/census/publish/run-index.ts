/** The run index on disk; index.json is untrusted, so a bad one is a usage error naming the field. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  readReportFile,
  readText,
  ReportFileError,
  SAVED_BOUNDS,
  versionedJson,
  type LoadedReport,
} from '../../compare/read.js';
import { InputError } from '../../model/input-error.js';
import type { Shown } from '../../model/shown.js';
import {
  INDEX_FILE,
  INDEX_PAGE,
  INDEX_VERSION,
  isRunDirName,
  RunIndex,
  emptyIndex,
  indexOf,
  newestFirst,
  type RunEntry,
  runEntry,
  runsBefore,
  withRun,
} from './index-format.js';
import { readBoundedText } from '../../io/read.js';
import { RUN_FILES } from '../../model/formats.js';
import type { Report } from '../../model/schema.js';
import { describeZodError } from '../../model/zod-errors.js';
import { renderIndexPage, type ServerLink } from './index-page.js';
import { ServerHistory } from './server-history.js';
import { BLOCK_END, BLOCK_START, censusBlock } from './census-block.js';
import { msg, show } from '../../render/message.js';
import { codeOf } from '../../app/output.js';
import { readBehaviour, type BehaviourRead } from './run-index-behaviour.js';

export type { RunIndex };

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

export function indexFiles(
  root: string,
  index: RunIndex,
  servers: readonly ServerLink[] = [],
  behaviour = '',
): { dest: string; data: string }[] {
  return [
    { dest: path.join(root, INDEX_FILE), data: JSON.stringify(index, null, 2) + '\n' },
    { dest: path.join(root, INDEX_PAGE), data: renderIndexPage(index, servers, undefined, behaviour) },
  ];
}

/** DIR must sit right under ROOT, so the index can link it by name. */
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

async function filesIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return RUN_FILES.filter((f) => names.includes(f));
}

/** After merge wrote ROOT/RUN: the index with its entry added (or replaced). */
export async function withMergedRun(root: string, run: string, report: Report): Promise<RunIndex> {
  const index = await readIndex(root);
  const made = runEntry(run, report, await filesIn(path.join(root, run)));
  if ('error' in made) throw new InputError(`the merged report cannot be indexed: ${made.error}`, { field: '--index' });
  return withRun(index, made.entry);
}

/** Unreadable or invalid runs are skipped, naming the file, for the one before. */
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

interface IndexedRun {
  entry: RunEntry;
  report: Report;
}

export interface RebuiltIndex {
  index: RunIndex;
  history: ServerHistory;
  behaviour: BehaviourRead;
  newest?: IndexedRun;
  indexed: number;
  skipped: number;
}

/** One bad run costs its own entry only; reports read one at a time, only the newest kept. */
export async function rebuildIndex(
  root: string,
  onSkipped: (file: string, why: string) => void,
): Promise<RebuiltIndex> {
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && isRunDirName(d.name))
      .map((d) => d.name);
  } catch (err) {
    throw new InputError(`cannot read the directory (${codeOf(err)})`, { file: root });
  }
  const entries: RunEntry[] = [];
  const history = new ServerHistory();
  let newest: IndexedRun | undefined;
  let skipped = 0;
  for (const name of names.sort()) {
    const files = await filesIn(path.join(root, name));
    if (!files.includes('report.json')) continue;
    const file = path.join(root, name, 'report.json');
    const run = await indexedRun(name, file, files);
    if ('error' in run) {
      skipped++;
      onSkipped(file, run.error);
      continue;
    }
    entries.push(run.entry);
    history.add(name, run.report);
    if (!newest || newestFirst(run.entry, newest.entry) < 0) newest = run;
  }
  const behaviour = await readBehaviour(root, (file, why) => onSkipped(file, `left off the index page: ${why}`));
  return {
    index: indexOf(entries),
    history,
    behaviour,
    ...(newest ? { newest } : {}),
    indexed: entries.length,
    skipped,
  };
}

async function indexedRun(name: string, file: string, files: string[]): Promise<IndexedRun | { error: string }> {
  let report: Report;
  try {
    report = (await readReportFile(file)).report;
  } catch (err) {
    if (err instanceof ReportFileError) return { error: err.detail };
    throw err;
  }
  const made = runEntry(name, report, files);
  return 'error' in made ? { error: `cannot be indexed: ${made.error}` } : { entry: made.entry, report };
}

const posix = (p: string) => p.split(path.sep).join('/');

/** README `readme`'s text with the census block of the newest run, its links relative to the README's directory. */
export async function readmeWithCensus(root: string, readme: string, rebuilt: Pick<RebuiltIndex, 'index' | 'newest'>) {
  const newest = rebuilt.index.runs[0];
  if (!newest || !rebuilt.newest)
    throw new InputError(msg`${show.path(root)} holds no run directory with a report.json: no census block to write`);
  const block = readmeBlock(root, readme, rebuilt.index, newest, rebuilt.newest.report);
  return replaceBlock(await readText(readme), block, readme);
}

/** The census block for a README at `readme`, its links relative to the README's directory. */
export function readmeBlock(root: string, readme: string, index: RunIndex, newest: RunEntry, report: Report): string {
  const rel = (p: string) => posix(path.relative(path.dirname(path.resolve(readme)), path.resolve(p))) || '.';
  const c = report.comparedWith;
  const earlier = c && index.runs.find((r) => r.dir !== newest.dir && r.startedAt === c.startedAt);
  return censusBlock(report, {
    run: rel(path.join(root, newest.dir)),
    files: newest.files,
    index: rel(root),
    ...(earlier
      ? {
          earlier: {
            run: rel(path.join(root, earlier.dir)),
            date: earlier.date,
            // Said, not left to the reader: the figures on either side are not of the same servers.
            ...(earlier.list && newest.list && earlier.list.hash !== newest.list.hash ? { differentList: true } : {}),
          },
        }
      : {}),
    command: `idemscan index ${posix(rel(root))} --readme ${path.basename(readme)}`,
  });
}

/** Replaces what is between the markers (markers included); a README without them is a usage error. */
export function replaceBlock(text: string, block: string, file = 'README'): string {
  const start = text.indexOf(BLOCK_START);
  const end = text.indexOf(BLOCK_END, start);
  if (start < 0 || end < 0)
    throw new InputError(`has no ${BLOCK_START} ... ${BLOCK_END} block to write the census into`, { file });
  const after = end + BLOCK_END.length + (text[end + BLOCK_END.length] === '\n' ? 1 : 0);
  return text.slice(0, start) + block + text.slice(after);
}
