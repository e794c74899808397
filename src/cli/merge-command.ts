/**
 * `idemscan merge A.json B.json ... [--json PATH | --out DIR] [--index ROOT] [--compare OLD|latest]`:
 * shard reports into one report. With `--index ROOT`, `--out` is a run directory ROOT/RUN and the
 * run's entry goes into ROOT/index.json and index.html (cli/run-index-files.ts).
 * Exit codes: 0 merged, 2 usage error, an unreadable or invalid report or index file, or reports
 * that must not be merged (different schema versions, a server in two reports).
 */
import path from 'node:path';
import { mergeReports } from '../compare/merge.js';
import { readReportFile } from '../compare/read.js';
import { InputError } from '../model/input-error.js';
import { reporter, REPORTERS } from '../render/index.js';
import { msg, show } from '../render/message.js';
import { EXIT } from './exit.js';
import { checkOutputDir, checkOutputFile, codeOf, writeOutputFile } from './output.js';
import { withComparison } from './saved-report.js';
import { plural } from '../model/verdicts.js';
import { note, warn } from './say.js';

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

/** Merging is quick to repeat: a file that cannot be written after all is an input error naming it. */
async function write(file: string, data: string): Promise<void> {
  await writeOutputFile(file, data).catch((err: unknown) => {
    throw new InputError(msg`cannot write ${show.path(file)} (${codeOf(err)})`);
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
    throw new InputError('--compare latest needs --index ROOT (the directory of index.json)');
  const inputs = [];
  for (const file of files) inputs.push(await readReportFile(file));
  const merged = mergeReports(inputs);
  const warnings = merged.warnings.map((w) => msg`${w}`);
  const earlier =
    flags.compare === 'latest'
      ? await indexing!.latestReport(flags.index!, merged.report, run, (w) => warnings.push(w))
      : flags.compare;
  if (flags.compare === 'latest' && earlier === undefined)
    warnings.push(msg`--compare latest: ${show.path(flags.index!)} has no earlier run; no trend section`);
  const report = earlier === undefined ? merged.report : await withComparison(merged.report, earlier);
  for (const w of warnings) warn(w);

  const json = (await reporter('json')).render(report);
  if (flags.out !== undefined) {
    for (const f of formats) {
      const r = await reporter(f);
      if (r.fileName) await write(path.join(flags.out, r.fileName), r.render(report));
    }
  }
  if (jsonPath === '-') process.stdout.write(json);
  else if (jsonPath !== undefined) await write(jsonPath, json);
  if (indexing) await indexing.updateIndex(flags.index!, run!, report);
  const s = report.summary;
  note(
    msg`merged ${plural(files.length, 'report')}: ${plural(s.servers, 'server')} (${s.serversOk} ok, ${s.serversFailed} failed), ${plural(s.tools, 'tool')}`,
  );
  process.exitCode = EXIT.ok;
}
