/** Every command's report files, checked before the run; streaming reporters share one read of the servers. */
import path from 'node:path';
import { reporter, REPORTERS } from '../render/index.js';
import type { Report, ServerReport } from '../model/schema.js';
import { reportOf, type ReportStream } from '../model/report-head.js';
import { InputError } from '../model/input-error.js';
import { idemscanCommand, shellWord } from '../model/invocation.js';
import type { Shown } from '../model/shown.js';
import type { RenderOptions, Reporter, ServerWriter } from '../render/types.js';
import { msg, show } from '../render/message.js';
import {
  checkOutputDir,
  checkOutputFile,
  codeOf,
  PieceFile,
  shownFile,
  writeFallback,
  writeOutputFile,
  wroteLine,
  type Content,
} from './output.js';
import type { Say } from './say.js';

export interface ReportFiles {
  /** `--out DIR`; none (merge without --out): no format files. */
  out?: string;
  /** `--format` ids in order; one without a file (table, tools) is printed. */
  formats: readonly string[];
  /** `--json PATH`, or `-` for stdout. */
  json?: string;
}

export type Writer = 'scan' | 'audit' | 'lock' | 'probe' | 'merge' | 'report';

interface Policy {
  /** A scan is never lost (a fallback file); merge and report are quick to repeat (an input error). */
  fallback: boolean;
  wrote?: (dest: string) => Shown;
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

export async function checkReportFiles(files: ReportFiles): Promise<void> {
  if (files.out !== undefined) await checkOutputDir('--out', files.out, fileNames(files.formats));
  if (files.json && files.json !== '-') await checkOutputFile('--json', files.json);
}

interface Target {
  id: string;
  dest?: string;
  reporter: Reporter;
}

type Attempt = { ok: true } | { ok: false; cause: unknown };

export async function writeReports(
  report: ReportStream,
  files: ReportFiles,
  writer: Writer,
  options: { render?: RenderOptions; print: (text: string) => void; say: Say },
): Promise<Written> {
  const policy = POLICY[writer];
  const out: Written = { ok: true, files: [] };
  const targets = await targetsOf(files);
  const pass = writeTogether(report, targets, options);
  const content = (r: Reporter): Content =>
    r.write ? (put) => r.write!(report, put, options.render) : r.render(pass.whole!, options.render);
  for (const t of targets) {
    const written = pass.written.get(t);
    if (t.dest !== undefined) await writeOne(t.dest, t.id, content(t.reporter), policy, out, options.say, written);
    else if (!written) print(content(t.reporter), options.print);
  }
  const hint = policy.hint ? htmlHint(out.files, writer) : undefined;
  if (hint) options.say.note(hint);
  return out;
}

async function targetsOf(files: ReportFiles): Promise<Target[]> {
  const named = files.formats.map((id) => ({ id, name: REPORTERS[id]?.fileName }));
  const targets: Target[] = [];
  for (const { id, name } of named) {
    if (name === undefined) targets.push({ id, reporter: await reporter(id) });
    else if (files.out !== undefined)
      targets.push({ id, dest: path.join(files.out, name), reporter: await reporter(id) });
  }
  if (files.json)
    targets.push({ id: 'json', dest: files.json === '-' ? undefined : files.json, reporter: await reporter('json') });
  return targets;
}

/** One read of the servers: each streaming report with a file, and the first printed one (nothing prints before). */
function writeTogether(
  report: ReportStream,
  targets: readonly Target[],
  options: { render?: RenderOptions; print: (text: string) => void },
): { written: Map<Target, Attempt>; whole?: Report } {
  const firstPrinted = targets.find((t) => t.dest === undefined);
  const passes: { target: Target; writer: ServerWriter; file?: PieceFile }[] = [];
  const written = new Map<Target, Attempt>();
  for (const target of targets) {
    const { open } = target.reporter;
    if (!open || (target.dest === undefined && target !== firstPrinted)) continue;
    if (target.dest === undefined) passes.push({ target, writer: open(report, options.print, options.render) });
    else
      try {
        const file = PieceFile.open(target.dest);
        passes.push({ target, writer: open(report, (t) => file.write(t), options.render), file });
      } catch (cause) {
        written.set(target, { ok: false, cause });
      }
  }
  const keep = targets.some((t) => !t.reporter.write);
  if (passes.length === 0 && !keep) return { written };
  const servers: ServerReport[] = [];
  for (const s of report.servers()) {
    for (const p of passes) p.writer.server(s);
    if (keep) servers.push(s);
  }
  for (const { target, writer, file } of passes) {
    writer.end();
    written.set(target, closed(file));
  }
  return { written, whole: keep ? reportOf(report.head, report.summary, servers) : undefined };
}

function closed(file: PieceFile | undefined): Attempt {
  try {
    file?.close();
    return { ok: true };
  } catch (cause) {
    return { ok: false, cause };
  }
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
  done?: Attempt,
): Promise<void> {
  try {
    if (!done) await writeOutputFile(dest, data);
    else if (!done.ok) throw done.cause;
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

/** The default scan writes only report.json: say how to get the page from it. */
function htmlHint(written: readonly { dest: string; id: string }[], command: Writer): Shown | undefined {
  if (written.some((f) => f.id === 'html')) return undefined;
  const json = written.find((f) => f.id === 'json');
  if (!json) return undefined;
  const report = idemscanCommand(`report ${shellWord(shownFile(json.dest).text)} --format html`);
  return msg`for the HTML report to open in a browser: ${report} (or ${command} with --format json,html)`;
}
