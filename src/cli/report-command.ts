/**
 * `idemscan report FILE.json [--format html,md] [--out DIR]`: re-render a saved report without
 * scanning again. The file must be a valid report (the zod `Report` schema); a bad file is a usage
 * error (exit 2) naming the file and the first fields that are wrong.
 */
import path from 'node:path';
import { readReportFile } from '../compare/read.js';
import { InputError } from '../model/input-error.js';
import { reporter } from '../render/index.js';
import { msg, show } from '../render/message.js';
import { outputWidth } from '../render/width.js';
import { checkOutputDir, checkRulesBaseUrl, codeOf, writeOutputFile } from './output.js';
import { toolsCommandFor } from './print-scan.js';
import { latestOf, withComparison } from './saved-report.js';
import { note, warn } from './say.js';

export interface ReportFlags {
  /** Parsed and checked by main.ts (listOption). */
  format: string[];
  out?: string;
  rulesBaseUrl?: string;
  sarifUri?: string[];
  /** An earlier report: adds the trend section (compare/trend.ts); `latest` with `index`. */
  compare?: string;
  /** The run index whose newest earlier run `--compare latest` names. */
  index?: string;
}

export async function reportCommand(file: string, flags: ReportFlags): Promise<void> {
  const reporters = await Promise.all(flags.format.map((f) => reporter(f)));
  if (flags.rulesBaseUrl !== undefined) checkRulesBaseUrl(flags.rulesBaseUrl);
  if (flags.compare === 'latest' && flags.index === undefined)
    throw new InputError('--compare latest needs --index ROOT (the directory of index.json)');
  const sarifUris = flags.sarifUri?.length
    ? (await import('./sarif-uri.js')).parseSarifUris(flags.sarifUri)
    : undefined;
  const { report: loaded } = await readReportFile(file);
  const earlier = flags.compare === 'latest' ? await latestOf(flags.index!, loaded, file) : flags.compare;
  const report = earlier === undefined ? loaded : await withComparison(loaded, earlier, file);
  const out = flags.out ?? path.dirname(file);
  for (const r of reporters) {
    if (r.fileName && path.resolve(out, r.fileName) === path.resolve(file)) {
      throw new InputError(`--format ${r.id} would overwrite the input; choose another --out`, { file });
    }
  }
  const files = reporters.flatMap((r) => (r.fileName ? [r.fileName] : []));
  if (files.length > 0) await checkOutputDir('--out', out, files);
  if (sarifUris) {
    const { sarifUriWarnings } = await import('./sarif-uri.js');
    for (const w of sarifUriWarnings(
      sarifUris,
      report.servers.map((s) => s.name),
      flags.format,
    ))
      warn(w);
  }
  for (const r of reporters) {
    const rendered = r.render(report, {
      rulesBaseUrl: flags.rulesBaseUrl,
      sarifUris,
      width: outputWidth(process.stdout),
      toolsCommand: toolsCommandFor(file),
    });
    if (!r.fileName) {
      process.stdout.write(rendered);
      continue;
    }
    const target = path.join(out, r.fileName);
    await writeOutputFile(target, rendered).catch((err: unknown) => {
      throw new InputError(msg`cannot write ${show.path(target)} (${codeOf(err)})`);
    });
    note(msg`wrote ${show.path(target)}`);
  }
}
