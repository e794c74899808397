/** `scan`'s spool (docs/SCALING.md): each server on disk as it finishes, for flat memory and `--resume`. */
import { lstatSync } from 'node:fs';
import v8 from 'node:v8';
import path from 'node:path';
import { SPOOL_FILE, spoolFileOf } from '../../model/formats.js';
import type { ReportHead } from '../../model/report-head.js';
import { SCHEMA_VERSION } from '../../model/schema-version.js';
import type { ScanRun } from './scan.js';
import type { ServerReport } from '../../model/schema.js';
import { FileSpool } from '../../spool/file-spool.js';
import { readSpool } from '../../spool/read-spool.js';
import { moveHome, runningSpools, thisWriter } from '../../spool/spool-writer.js';
import { SpoolKey } from '../../spool/spool-mac.js';
import type { SpoolHeader, SpoolRun, SpoolWriter } from '../../model/spool-schema.js';
import { inputOf } from '../../targets/kind.js';
import type { Target } from '../../targets/types.js';
import { InputError } from '../../model/input-error.js';
import type { Shown } from '../../model/shown.js';
import { joinShown, msg, show } from '../../render/message.js';
import type { Say } from '../say.js';

/** 190 MiB peak, not 340, at 10,000 remotes, for a tenth more time (docs/SCALING.md); V8 reads it at each GC. */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString('--heap-growing-percent=50');
}

export interface OpenedSpool {
  spool: FileSpool;
  /** Positions of the targets whose servers were read back (`--resume`). */
  resumed: Set<number>;
  /** The interrupted scan's, with --resume, as the spool's header says. */
  startedAt: string;
  /** Why the spool's key could not be kept in the cache, so that --resume cannot read it back. */
  unkept?: string;
  /** The name --resume reads, when a running scan's spool held it and this one is written beside it. */
  home?: string;
}

export interface SpoolSettings {
  resume: boolean;
  /** Where this machine's spool key is (spool/spool-mac.ts). */
  cacheDir: string;
  /** The options a server's report depends on: a resumed scan must have the same. */
  run: SpoolRun;
  shard?: { index: number; count: number };
}

/** A spool another scan is writing now is never taken for an interrupted one (spool/spool-writer.ts). */
export function openSpool(out: string, targets: readonly Target[], settings: SpoolSettings, say: Say): OpenedSpool {
  const file = path.join(out, spoolFileOf(settings.shard));
  const key = SpoolKey.of(settings.cacheDir);
  const keys = targets.map((t) => targetKey(t, key));
  const keyOf = (position: number) => keys[position]!;
  const there = lstatSync(file, { throwIfNoEntry: false });
  if (there?.isDirectory()) throw new InputError(`${SPOOL_FILE} there is a directory`, { field: '--out', file: out });
  const running = runningSpools(out, key);
  const held = running.find((r) => r.name === path.basename(file))?.writer;
  if (held && settings.resume)
    throw new InputError(
      msg`--resume: ${show.path(file)} is being written by a scan running now (pid ${held.pid}): resume once it has stopped`,
    );
  if (running[0]) warnRunning(out, running[0], say);
  if (settings.resume) return resumeSpool(file, targets, { keys, key, run: settings.run }, say);
  // Said even with -q: the servers an interrupted scan kept are about to go.
  if (there?.isFile() && !held)
    say.warn(msg`replacing ${show.path(file)}, the servers an interrupted scan kept (--resume keeps them)`);
  const start = { schemaVersion: SCHEMA_VERSION, startedAt: new Date().toISOString(), run: settings.run };
  // Beside the running scan's spool, never over it.
  const own = held ? `${file}.${process.pid}` : file;
  const spool = FileSpool.create(own, { ...start, writer: thisWriter() }, keyOf, key);
  return { spool, resumed: new Set(), startedAt: start.startedAt, unkept: key.unkept, ...(held ? { home: file } : {}) };
}

/** Its spool is not this scan's to touch, but the report files there are both scans'. */
function warnRunning(out: string, running: { name: string; writer: SpoolWriter }, say: Say): void {
  say.warn(
    msg`another scan is writing to ${show.path(out)} now (${show.name(running.name)}, pid ${running.writer.pid}): the report files there are the last one's to finish; give each scan (each shard) its own --out`,
  );
}

function resumeSpool(
  file: string,
  targets: readonly Target[],
  spoolKeys: { keys: string[]; key: SpoolKey; run: SpoolRun },
  say: Say,
): OpenedSpool {
  const { keys, key } = spoolKeys;
  if (key.unkept)
    throw new InputError(msg`--resume: no spool key to check the spool with (${show.reason(key.unkept)})`);
  const old = readSpool(file, key);
  checkHeader(file, old.header, spoolKeys.run);
  // Built beside the old spool and renamed over it: an interruption now loses nothing. Lines are signed anew.
  const start = { ...old.header, writer: thisWriter() };
  const next = FileSpool.create(`${file}.${process.pid}.resume`, start, (at) => keys[at]!, key);
  let carried: Carried;
  try {
    carried = carry(old.lines(), targets, keys, next);
  } catch (err) {
    next.remove();
    throw err;
  }
  const { resumed, unlisted, changed } = carried;
  if (unlisted.length > 0) {
    // Another list, or another shard: resuming would drop those servers for good.
    next.remove();
    const shown = unlisted.slice(0, 5).map((n) => msg`${show.name(n)}`);
    const names = msg`${joinShown(shown, ', ')}${unlisted.length > 5 ? ', ...' : ''}`;
    throw new InputError(
      msg`--resume: ${show.path(file)} holds ${unlisted.length} server${unlisted.length === 1 ? '' : 's'} this list does not (${names}): resume with the list the scan started with, or scan without --resume`,
    );
  }
  const spool = next.moveTo(file);
  const said = resumeText(file, resumed.size, targets.length, changed, old.truncated);
  if (changed > 0 || old.truncated) say.tell(said);
  else say.note(said);
  return { spool, resumed, startedAt: old.header.startedAt };
}

interface Carried {
  resumed: Set<number>;
  unlisted: string[];
  /** Servers whose target's launch recipe changed since: scanned again. */
  changed: number;
}

function carry(
  lines: ReturnType<ReturnType<typeof readSpool>['lines']>,
  targets: readonly Target[],
  keys: readonly string[],
  next: FileSpool,
): Carried {
  const byKey = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!byKey.has(k)) byKey.set(k, i);
  });
  const names = new Set(targets.map((t) => t.name));
  const out: Carried = { resumed: new Set(), unlisted: [], changed: 0 };
  for (const { entry } of lines) {
    const at = byKey.get(entry.key);
    if (!names.has(entry.server.name)) out.unlisted.push(entry.server.name);
    else if (at === undefined || targets[at]!.name !== entry.server.name) out.changed += 1;
    else if (!out.resumed.has(at)) {
      next.addLine(at, JSON.stringify(entry));
      out.resumed.add(at);
    }
  }
  return out;
}

/** The spool's report schema and run options are this scan's, or --resume would mix two kinds of report. */
function checkHeader(file: string, header: SpoolHeader, run: SpoolRun): void {
  if (header.schemaVersion !== SCHEMA_VERSION)
    throw new InputError(
      msg`--resume: ${show.path(file)}: written for report schema ${show.name(header.schemaVersion)}, this idemscan writes ${SCHEMA_VERSION}: scan without --resume`,
    );
  // Both sides' keys: an option only the interrupted scan had (`writable`) differs as well.
  const keys = [...new Set([...Object.keys(run), ...Object.keys(header.run)])] as (keyof SpoolRun)[];
  const differ = keys.filter((k) => JSON.stringify(header.run[k]) !== JSON.stringify(run[k]));
  if (differ.length === 0) return;
  const said = differ.map(
    (k) =>
      msg`${k} ${show.reason(JSON.stringify(header.run[k]) ?? 'none')} then, ${show.reason(JSON.stringify(run[k]) ?? 'none')} now`,
  );
  throw new InputError(
    msg`--resume: ${show.path(file)} was scanned with other options (${joinShown(said, '; ')}): resume with the same options, or scan without --resume`,
  );
}

function resumeText(file: string, kept: number, targets: number, changed: number, truncated: boolean): Shown {
  const n = (x: number) => x.toLocaleString('en-US');
  const parts = [
    msg`--resume: ${n(kept)} of ${n(targets)} servers read back from ${show.path(file)}; scanning the other ${n(targets - kept)}`,
  ];
  if (changed > 0) parts.push(msg`${n(changed)} in the spool whose target changed since: scanned again`);
  if (truncated)
    parts.push(msg`its last line was cut short (the scan was killed while writing it): that server is scanned again`);
  return joinShown(parts, '; ');
}

/** An HMAC of the whole launch recipe, values included, so the key says nothing of a secret in it. */
export function targetKey(target: Target, key: SpoolKey): string {
  const flat = new Map(Object.entries(inputOf(target)));
  return key.mac(JSON.stringify(Object.fromEntries(RECIPE.map((k) => [k, flat.get(k)])))).slice(0, 32);
}

/** In the order the list readers give them, so spools written before keep their keys. */
const RECIPE = [
  'name',
  'transport',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'npm',
  'bin',
  'pypi',
  'index',
  'mcpb',
  'oci',
  'installScripts',
  'timeoutMs',
  'skip',
  'comment',
  'oauth',
  'secrets',
  'scope',
  'launcher',
  'trusted',
  'fakeEnv',
  'saved',
] as const;

/** Each call of `servers` is a new pass over the file. */
export function spooledServers(
  opened: OpenedSpool,
  run: ScanRun,
): { head: ReportHead; servers: () => Iterable<ServerReport> } {
  const head = { ...run.head, startedAt: opened.startedAt };
  if (opened.resumed.size > 0) head.options = { ...head.options, resumed: opened.resumed.size };
  function* servers() {
    for (const s of opened.spool.servers()) yield run.redactLater(s);
  }
  return { head, servers };
}

export function closeSpool(opened: OpenedSpool, complete: boolean, say: Say): void {
  const { spool } = opened;
  if (spool.failure)
    say.warn(
      msg`could not write ${show.path(spool.file)} (${show.reason(spool.failure)}): ${spool.inMemory} servers were kept in memory only, and are in the reports${complete ? '' : ' (--resume scans them again)'}`,
    );
  if (complete) return spool.remove();
  spool.close();
  const n = spool.size;
  const kept = opened.home === undefined ? spool.file : moveHome(spool.file, opened.home);
  const back = opened.unkept
    ? msg`--resume cannot read them back (no spool key could be kept: ${show.reason(opened.unkept)})`
    : kept === spool.file && opened.home !== undefined
      ? msg`another scan's spool is at ${show.path(opened.home)}: move this one there once it is gone, for --resume`
      : msg`the same scan with --resume scans only the rest`;
  say.tell(
    msg`the ${n.toLocaleString('en-US')} server${n === 1 ? '' : 's'} scanned are kept in ${show.path(kept)}: ${back}`,
  );
}
