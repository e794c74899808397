/** The report files of scan, audit, lock and probe: checked before the run, written after it. */
import path from 'node:path';
import { reporter, REPORTERS } from '../render/index.js';
import type { Report } from '../model/schema.js';
import { wholeReport, type ReportStream } from '../model/report-head.js';
import type { SarifUris } from '../render/types.js';
import { msg, show } from '../render/message.js';
import type { ReportFileFlags as ScanFlags } from './flags.js';
import { checkOutputDir, checkOutputFile, codeOf, writeFallback, writeOutputFile, type Content } from './output.js';
import { htmlHint, wroteLine } from './print-scan.js';
import { note, tell, warn } from './say.js';

/** `--out` and `--json` before the scan: a path that cannot be written is a usage error, not a lost scan. */
export async function checkOutputs(flags: ScanFlags, formats: string[]): Promise<void> {
  await checkOutputDir(
    '--out',
    flags.out,
    formats.map((f) => REPORTERS[f]!.fileName!),
  );
  if (flags.json && flags.json !== '-') await checkOutputFile('--json', flags.json);
}

/**
 * Writes every report file. One that cannot be written after all (its directory changed during the
 * scan) is saved to a fallback file, named on stderr: the scan is never lost. False if any failed.
 * Streaming reporters (JSON, the dataset) read the servers one at a time; the others get the report
 * in memory, read from the stream once, when the first of them is written.
 */
export async function writeOutputs(
  report: ReportStream,
  flags: ScanFlags,
  formats: string[],
  sarifUris: SarifUris | undefined,
  command: 'scan' | 'audit' | 'lock' | 'probe',
): Promise<boolean> {
  const files = formats
    .filter((f) => REPORTERS[f]?.fileName)
    .map((id) => ({ dest: path.join(flags.out, REPORTERS[id]!.fileName!), id }));
  if (flags.json && flags.json !== '-') files.push({ dest: flags.json, id: 'json' });
  if (sarifUris) await warnSarifUris(sarifUris, report, formats);
  let ok = true;
  const written: typeof files = [];
  let whole: Report | undefined;
  const options = { rulesBaseUrl: flags.rulesBaseUrl, sarifUris };
  for (const { dest, id } of files) {
    const r = await reporter(id);
    const data: Content = r.write
      ? (out) => r.write!(report, out, options)
      : r.render((whole ??= wholeReport(report)), options);
    try {
      await writeOutputFile(dest, data);
      written.push({ dest, id });
      note(wroteLine(dest));
    } catch (err) {
      ok = false;
      const saved = await writeFallback(path.basename(dest), data).catch(() => undefined);
      const where = saved
        ? msg`the report is saved in ${show.path(saved)}`
        : msg`no fallback file could be written either`;
      tell(msg`cannot write ${show.path(dest)} (${codeOf(err)}); ${where}`);
    }
  }
  const hint = htmlHint(written, command);
  if (hint) note(hint);
  if (flags.json === '-') (await reporter('json')).write!(report, (t) => process.stdout.write(t));
  return ok;
}

/** A mapped name no server has, or a path that is no file here: most likely a typo, so said on stderr. */
async function warnSarifUris(uris: SarifUris, report: ReportStream, formats: string[]): Promise<void> {
  const { sarifUriWarnings } = await import('./sarif-uri.js');
  const names: string[] = [];
  for (const s of report.servers()) names.push(s.name);
  for (const w of sarifUriWarnings(uris, names, formats)) warn(w);
}
