/**
 * `scan`'s spool (docs/SCALING.md): every finished server goes to `<out>/scan.spool.ndjson` as it
 * finishes, and the reports are written from it a server at a time, so a scan of 10,000 remotes
 * keeps its memory flat; an interrupted scan leaves the file, and `scan --resume` reads it back
 * and scans only the targets it does not hold. Not a command module: cli/commands.ts imports it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import v8 from 'node:v8';
import path from 'node:path';
import { SPOOL_FILE } from '../model/formats.js';
import { reportOf, type ReportStream } from '../model/report-head.js';
import type { Report } from '../model/schema.js';
import { SCHEMA_VERSION } from '../model/schema-version.js';
import { summarize } from '../model/summary.js';
import { describeTarget } from '../redact/redact.js';
import { redactServer } from '../redact/redact-report.js';
import type { ScanRun } from '../scan.js';
import { FileSpool } from '../spool/file-spool.js';
import { readSpool, SpoolFileError } from '../spool/read-spool.js';
import type { Target } from '../targets/types.js';
import { safeText } from '../render/terminal.js';
import { UsageError } from './exit.js';

/**
 * With the servers on disk, what is left in memory is small (about 30 MB live at 10,000 remotes),
 * but V8 lets the old generation grow to several times the live size between full collections
 * while 64 connections make garbage: 340 MiB peak at 10,000 remotes. A heap that may grow by half
 * before the next full collection peaks at 190 MiB, for about a tenth more time (docs/SCALING.md).
 * V8 reads this factor at each collection, so setting it now, before the scan, takes effect.
 */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString('--heap-growing-percent=50');
}

export interface OpenedSpool {
  spool: FileSpool;
  /** Positions of the targets whose servers were read back (`--resume`). */
  resumed: Set<number>;
  /** When the scan started (the interrupted one, with --resume): the report's `startedAt`, as the spool's header says. */
  startedAt: string;
}

/** A new spool under `out`, or with `resume` the one there, keeping the servers of targets still listed and unchanged. */
export function openSpool(out: string, targets: readonly Target[], resume: boolean, quiet?: boolean): OpenedSpool {
  const file = path.join(out, SPOOL_FILE);
  const keys = targets.map(targetKey);
  const keyOf = (position: number) => keys[position]!;
  const header = { idemscanSpool: 1 as const, schemaVersion: SCHEMA_VERSION, startedAt: new Date().toISOString() };
  if (!resume) {
    // Said even with -q: the servers an interrupted scan kept are about to go.
    if (existsSync(file))
      process.stderr.write(
        `idemscan: warning: replacing ${safeText(file, 300)}, the servers an interrupted scan kept (--resume keeps them)\n`,
      );
    return { spool: FileSpool.create(file, header, keyOf), resumed: new Set(), startedAt: header.startedAt };
  }

  let old: ReturnType<typeof readSpool>;
  try {
    old = readSpool(file);
  } catch (err) {
    if (!(err instanceof SpoolFileError)) throw err;
    throw new UsageError(
      `--resume: ${safeText(err.message, 1_000)}${/ENOENT|no such file/i.test(err.detail) ? ' (a scan interrupted with this --out leaves one)' : ''}`,
    );
  }
  if (old.header.schemaVersion !== SCHEMA_VERSION)
    throw new UsageError(
      `--resume: ${safeText(file, 300)}: written for report schema ${safeText(old.header.schemaVersion, 20)}, this idemscan writes ${SCHEMA_VERSION}: scan without --resume`,
    );
  const byKey = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!byKey.has(k)) byKey.set(k, i);
  });
  // Built beside the old spool, then renamed over it: an interruption now loses nothing either.
  const next = FileSpool.create(
    `${file}.${process.pid}.resume`,
    { ...old.header, schemaVersion: SCHEMA_VERSION },
    keyOf,
  );
  const resumed = new Set<number>();
  let dropped = 0;
  try {
    for (const { entry } of old.lines()) {
      const at = byKey.get(entry.key);
      if (at === undefined || targets[at]!.name !== entry.server.name || resumed.has(at)) {
        dropped += 1;
        continue;
      }
      next.addLine(at, JSON.stringify(entry));
      resumed.add(at);
    }
  } catch (err) {
    next.remove();
    if (err instanceof SpoolFileError) throw new UsageError(`--resume: ${safeText(err.message, 1_000)}`);
    throw err;
  }
  const spool = next.moveTo(file);
  if (!quiet || dropped > 0 || old.truncated)
    process.stderr.write(`idemscan: ${resumeText(file, resumed.size, targets.length, dropped, old.truncated)}\n`);
  return { spool, resumed, startedAt: old.header.startedAt };
}

function resumeText(file: string, kept: number, targets: number, dropped: number, truncated: boolean): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const parts = [
    `--resume: ${n(kept)} of ${n(targets)} servers read back from ${safeText(file, 300)}; scanning the other ${n(targets - kept)}`,
  ];
  if (dropped > 0) parts.push(`${n(dropped)} in the spool are not in this list, or their target changed: left out`);
  if (truncated)
    parts.push('its last line was cut short (the scan was killed while writing it): that server is scanned again');
  return parts.join('; ');
}

/**
 * Which target a spooled server is: its name and redacted launch recipe, hashed. A target whose
 * command, arguments, URL, package or declared variables changed is scanned again; one whose
 * secret values alone changed is not (they are not in the recipe).
 */
export function targetKey(target: Target): string {
  const t = describeTarget(target);
  const recipe = [
    target.name,
    t.transport,
    t.command,
    t.args,
    t.env,
    t.url,
    t.headers,
    t.npm,
    t.pypi,
    t.index,
    t.mcpb,
    t.oci,
    t.launcher,
    target.cwd,
  ];
  return createHash('sha256').update(JSON.stringify(recipe)).digest('hex').slice(0, 32);
}

/**
 * The report as a stream over the spool: each server read back redacted with the tokens stored
 * while the scan ran (with every stored token when some came from an earlier run), and the
 * summary summed in one pass over them.
 */
export function spooledReport(opened: OpenedSpool, run: ScanRun): ReportStream {
  const redactor = opened.resumed.size > 0 ? run.stored : run.later;
  const head = { ...run.head, startedAt: opened.startedAt };
  if (opened.resumed.size > 0) head.options = { ...head.options, resumed: opened.resumed.size };
  function* servers() {
    for (const s of opened.spool.servers()) yield redactor ? redactServer(s, redactor) : s;
  }
  return { head, summary: summarize(servers()), servers };
}

/** The whole report in memory: for what reads it all at once (--fail-on, --baseline, --suppress, HTML, ...). */
export function wholeReport(stream: ReportStream): Report {
  return reportOf(stream.head, stream.summary, [...stream.servers()]);
}

/**
 * After the reports: a complete run's spool is removed (the reports hold every server); an
 * interrupted one's, or one whose reports could not all be written, is kept, and said.
 */
export function closeSpool(opened: OpenedSpool, complete: boolean): void {
  if (complete) return opened.spool.remove();
  opened.spool.close();
  const n = opened.spool.size;
  process.stderr.write(
    `idemscan: the ${n.toLocaleString('en-US')} server${n === 1 ? '' : 's'} scanned are kept in ${safeText(opened.spool.file, 300)}: the same scan with --resume scans only the rest\n`,
  );
}
