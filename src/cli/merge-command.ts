/**
 * `idemscan merge A.json B.json ... [--json PATH | --out DIR] [--index ROOT] [--compare OLD|latest]`:
 * shard reports into one report. With `--index ROOT`, `--out` is a run directory ROOT/RUN and the
 * run's entry goes into ROOT/index.json and index.html (cli/run-index-files.ts).
 * Exit codes: 0 merged, 2 usage error, an unreadable or invalid report or index file, or reports
 * that must not be merged (different schema versions, a server in two reports).
 */
import path from 'node:path';
import { MergeError, mergeReports } from '../compare/merge.js';
import { reporter, REPORTERS } from '../render/index.js';
import { safeText } from '../render/terminal.js';
import { EXIT, UsageError } from './exit.js';
import { checkOutputDir, checkOutputFile, codeOf, writeOutputFile } from './output.js';
import { loadReport, withComparison } from './saved-report.js';
import { plural } from '../model/verdicts.js';

interface MergeFlags {
  json?: string;
  out?: string;
  /** Parsed and checked by main.ts (listOption): file formats only. */
  format: string[];
  quiet?: boolean;
  /** `OLD.json`, or `latest`: the newest earlier run of `--index`. */
  compare?: string;
  index?: string;
}

/** Merging is quick to repeat: a file that cannot be written after all is a usage error naming it. */
async function write(file: string, data: string): Promise<void> {
  await writeOutputFile(file, data).catch((err: unknown) => {
    throw new UsageError(`cannot write ${safeText(file, 300)} (${codeOf(err)})`);
  });
}

export async function mergeCommand(files: string[], flags: MergeFlags): Promise<void> {
  const formats = flags.format;
  const jsonPath = flags.json ?? (flags.out === undefined ? '-' : undefined);
  if (flags.out !== undefined)
    await checkOutputDir(
      '--out',
      flags.out,
      formats.flatMap((f) => REPORTERS[f]?.fileName ?? []),
    );
  if (jsonPath !== undefined && jsonPath !== '-') await checkOutputFile('--json', jsonPath);
  // The index is read (and checked) before anything is written: a bad index.json costs no merge.
  const indexing = flags.index === undefined ? undefined : await import('./run-index-files.js');
  const run = indexing ? indexing.runDirOf(flags.index!, flags.out) : undefined;
  if (indexing) await indexing.readIndex(flags.index!);
  if (flags.compare === 'latest' && !indexing)
    throw new UsageError('--compare latest needs --index ROOT (the directory of index.json)');
  const inputs = [];
  for (const file of files) inputs.push(await loadReport(file));
  let merged;
  try {
    merged = mergeReports(inputs);
  } catch (err) {
    if (err instanceof MergeError) throw new UsageError(safeText(err.message, 1000));
    throw err;
  }
  const { warnings } = merged;
  const earlier =
    flags.compare === 'latest'
      ? await indexing!.latestReport(flags.index!, merged.report, run, (w) => warnings.push(w))
      : flags.compare;
  if (flags.compare === 'latest' && earlier === undefined)
    warnings.push(`--compare latest: ${safeText(flags.index!, 300)} has no earlier run; no trend section`);
  const report = earlier === undefined ? merged.report : await withComparison(merged.report, earlier);
  for (const w of warnings) process.stderr.write(`idemscan: warning: ${safeText(w, 1000)}\n`);

  const json = (await reporter('json')).render(report);
  if (flags.out !== undefined) {
    for (const f of formats) {
      const r = await reporter(f);
      if (r.fileName) await write(path.join(flags.out, r.fileName), r.render(report));
    }
  }
  if (jsonPath === '-') process.stdout.write(json);
  else if (jsonPath !== undefined) await write(jsonPath, json);
  if (indexing) await indexing.updateIndex(flags.index!, run!, report, flags.quiet);
  if (!flags.quiet) {
    const s = report.summary;
    process.stderr.write(
      `idemscan: merged ${plural(files.length, 'report')}: ${plural(s.servers, 'server')} (${s.serversOk} ok, ${s.serversFailed} failed), ${plural(s.tools, 'tool')}\n`,
    );
  }
  process.exitCode = EXIT.ok;
}
