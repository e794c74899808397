/**
 * The index of published runs on disk: `ROOT/index.json` and `ROOT/index.html`, where each run is a
 * directory `ROOT/RUN` holding a report.json (compare/run-index.ts has the format).
 * - `idemscan index ROOT [--readme README.md]` rebuilds both from the run directories, and with
 *   `--readme` writes the README's census block from the newest run.
 * - `merge ... --out ROOT/RUN --index ROOT` adds or replaces its run's entry (updateIndex).
 * - `--compare latest --index ROOT` (merge, report) compares with the newest earlier run.
 * A bad index.json is a usage error naming the file and the field: it is read as untrusted input.
 * A run whose report.json is bad is skipped with a warning naming the file; the others are indexed.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readReportFile, readText, ReportFileError } from '../compare/read.js';
import { indexOf, isRunDirName, RunIndex, runEntry, type RunEntry } from '../compare/run-index.js';
import { BLOCK_END, BLOCK_START, censusBlock } from '../render/census-block.js';
import { InputError } from '../model/input-error.js';
import type { Report } from '../model/schema.js';
import { msg, show } from '../render/message.js';
import { codeOf, writeOutputFile, wroteLine } from '../app/output.js';
import { filesIn, writeIndex } from './run-index-files.js';
import { note, warn } from './say.js';

/**
 * Every run directory under ROOT with a report.json, read and validated. A run whose report cannot
 * be read, is no valid report or cannot be indexed is skipped, naming its file: one bad run in a
 * repository of published runs costs its own entry only.
 */
async function scanRuns(root: string): Promise<{ runs: { entry: RunEntry; report: Report }[]; skipped: number }> {
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && isRunDirName(d.name))
      .map((d) => d.name);
  } catch (err) {
    throw new InputError(`cannot read the directory (${codeOf(err)})`, { file: root });
  }
  const runs = [];
  let skipped = 0;
  for (const name of names.sort()) {
    const files = await filesIn(path.join(root, name));
    if (!files.includes('report.json')) continue;
    const file = path.join(root, name, 'report.json');
    const run = await indexedRun(name, file, files);
    if ('error' in run) {
      skipped++;
      warn(msg`skipped ${show.path(file)}: ${run.error}`);
    } else runs.push(run);
  }
  return { runs, skipped };
}

async function indexedRun(
  name: string,
  file: string,
  files: string[],
): Promise<{ entry: RunEntry; report: Report } | { error: string }> {
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

export interface IndexFlags {
  readme?: string;
  quiet?: boolean;
}

export async function indexCommand(root: string, flags: IndexFlags): Promise<void> {
  const { runs, skipped } = await scanRuns(root);
  const index = indexOf(runs.map((r) => r.entry));
  await writeIndex(root, index);
  if (flags.readme !== undefined) {
    const newest = index.runs[0];
    if (!newest)
      throw new InputError(msg`${show.path(root)} holds no run directory with a report.json: no census block to write`);
    const report = runs.find((r) => r.entry.dir === newest.dir)!.report;
    await writeReadmeBlock(flags.readme, readmeBlock(root, flags.readme, index, newest, report));
  }
  note(
    msg`indexed ${runs.length} run${runs.length === 1 ? '' : 's'} in ${show.path(root)}${skipped ? `; ${skipped} skipped` : ''}`,
  );
}

const posix = (p: string) => p.split(path.sep).join('/');

/** The census block for a README at `readme`, its links relative to the README's directory. */
export function readmeBlock(root: string, readme: string, index: RunIndex, newest: RunEntry, report: Report): string {
  const rel = (p: string) => posix(path.relative(path.dirname(path.resolve(readme)), path.resolve(p))) || '.';
  const c = report.comparedWith;
  const earlier = c && index.runs.find((r) => r.dir !== newest.dir && r.startedAt === c.startedAt);
  return censusBlock(report, {
    run: rel(path.join(root, newest.dir)),
    files: newest.files,
    index: rel(root),
    ...(earlier ? { earlier: { run: rel(path.join(root, earlier.dir)), date: earlier.date } } : {}),
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

async function writeReadmeBlock(readme: string, block: string): Promise<void> {
  const text = await readText(readme);
  await writeOutputFile(readme, replaceBlock(text, block, readme)).catch((err: unknown) => {
    throw new InputError(msg`cannot write ${show.path(readme)} (${codeOf(err)})`);
  });
  note(wroteLine(readme));
}
