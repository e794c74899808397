/**
 * The one report writer: scan, audit, lock, probe, merge and report write their report files here,
 * checked before the run (a path that cannot be written is an input error, not a lost scan) and
 * written after it. Streaming reporters (JSON, the dataset) read the servers one at a time; the
 * others get the report in memory, assembled from the stream once, when the first of them is written.
 */
import path from 'node:path';
import { reporter, REPORTERS } from '../render/index.js';
import type { Report } from '../model/schema.js';
import { wholeReport, type ReportStream } from '../model/report-head.js';
import { InputError } from '../model/input-error.js';
import type { Shown } from '../model/shown.js';
import type { RenderOptions } from '../render/types.js';
import { msg, show } from '../render/message.js';
import {
  checkOutputDir,
  checkOutputFile,
  codeOf,
  shownFile,
  writeFallback,
  writeOutputFile,
  wroteLine,
  type Content,
} from './output.js';
import type { Say } from './say.js';

/** Where the reports go: one file under `out` per format that has one, and `--json`. */
export interface ReportFiles {
  /** `--out DIR`; none (merge without --out): no format files. */
  out?: string;
  /** `--format` ids in order; one without a file (table, tools) is printed. */
  formats: readonly string[];
  /** `--json PATH`, or `-` for stdout. */
  json?: string;
}

/** The commands that write reports. */
export type Writer = 'scan' | 'audit' | 'lock' | 'probe' | 'merge' | 'report';

interface Policy {
  /** A scan is never lost: a file that cannot be written goes to a fallback file. Merge and report are quick to repeat: an input error. */
  fallback: boolean;
  /** The note for a file written, if any. */
  wrote?: (dest: string) => Shown;
  /** After the files: how to get the HTML page from the JSON just written. */
  hint: boolean;
}

const SCAN: Policy = { fallback: true, wrote: wroteLine, hint: true };
const POLICY: Record<Writer, Policy> = {
  scan: SCAN,
  audit: SCAN,
  lock: SCAN,
  probe: SCAN,
  merge: { fallback: false, hint: false },
  report: { fallback: false, wrote: (dest) => msg`wrote ${show.path(dest)}`, hint: false },
};

export interface Written {
  /** False if a file could not be written (saved to a fallback file instead). */
  ok: boolean;
  files: { dest: string; id: string }[];
}

const fileNames = (formats: readonly string[]) => formats.flatMap((f) => REPORTERS[f]?.fileName ?? []);

/** `--out` and `--json` before the run: created if missing, writable, no directory where a file goes. */
export async function checkReportFiles(files: ReportFiles): Promise<void> {
  if (files.out !== undefined) await checkOutputDir('--out', files.out, fileNames(files.formats));
  if (files.json && files.json !== '-') await checkOutputFile('--json', files.json);
}

/**
 * Writes every report of `files`, in `--format` order, then `--json`; what has no file goes to
 * `print` (stdout). False in `ok` when a file went to a fallback (scan, audit, lock, probe).
 */
export async function writeReports(
  report: ReportStream,
  files: ReportFiles,
  writer: Writer,
  options: { render?: RenderOptions; print: (text: string) => void; say: Say },
): Promise<Written> {
  const policy = POLICY[writer];
  const out: Written = { ok: true, files: [] };
  let whole: Report | undefined;
  const content = async (id: string): Promise<Content> => {
    const r = await reporter(id);
    return r.write
      ? (put) => r.write!(report, put, options.render)
      : r.render((whole ??= wholeReport(report)), options.render);
  };
  const targets = files.formats.map((id) => ({ id, name: REPORTERS[id]?.fileName }));
  for (const { id, name } of targets) {
    if (name === undefined) print(await content(id), options.print);
    else if (files.out !== undefined)
      await writeOne(path.join(files.out, name), id, await content(id), policy, out, options.say);
  }
  if (files.json === '-') print(await content('json'), options.print);
  else if (files.json) await writeOne(files.json, 'json', await content('json'), policy, out, options.say);
  const hint = policy.hint ? htmlHint(out.files, writer) : undefined;
  if (hint) options.say.note(hint);
  return out;
}

function print(data: Content, to: (text: string) => void): void {
  if (typeof data === 'string') to(data);
  else data(to);
}

async function writeOne(
  dest: string,
  id: string,
  data: Content,
  policy: Policy,
  out: Written,
  say: Say,
): Promise<void> {
  try {
    await writeOutputFile(dest, data);
  } catch (err) {
    if (!policy.fallback) throw new InputError(msg`cannot write ${show.path(dest)} (${codeOf(err)})`);
    out.ok = false;
    const saved = await writeFallback(path.basename(dest), data).catch(() => undefined);
    const where = saved
      ? msg`the report is saved in ${show.path(saved)}`
      : msg`no fallback file could be written either`;
    say.tell(msg`cannot write ${show.path(dest)} (${codeOf(err)}); ${where}`);
    return;
  }
  out.files.push({ dest, id });
  if (policy.wrote) say.note(policy.wrote(dest));
}

/**
 * After the wrote lines, when no HTML was written: how to get the page from the JSON just written
 * (the default scan writes only report.json). Undefined when HTML was written or no JSON file was.
 */
export function htmlHint(written: readonly { dest: string; id: string }[], command: Writer): Shown | undefined {
  if (written.some((f) => f.id === 'html')) return undefined;
  const json = written.find((f) => f.id === 'json');
  if (!json) return undefined;
  return msg`for the HTML report to open in a browser: idemscan report ${shownFile(json.dest)} --format html (or ${command} with --format json,html)`;
}
