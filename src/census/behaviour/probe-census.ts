/** One server at a time (their effects are real), sandboxed; never prints: the caller gets events. */
import path from 'node:path';
import type { BehaviourRow, BehaviourServer, BehaviourTable } from './behaviour.js';
import { streamOf } from '../../model/report-head.js';
import type { Report } from '../../model/schema.js';
import { TOOL_VERSION } from '../../model/version.js';
import { bounded } from '../../model/bounds.js';
import { behaviourOf, behaviourTable, type ServerRun } from './behaviour-rows.js';
import { otherMethodParts } from './auto-census.js';
import { installTargets, type InstallEvent } from '../../app/packages/install.js';
import { codeOf, writeFallback, writeOutputFile } from '../../app/output.js';
import { msg, show } from '../../render/message.js';
import { Redactor } from '../../redact/redact.js';
import { planSecrets } from '../../probe/plan-secrets.js';
import {
  removeScratch,
  REPORTS_DIR,
  TABLE_FILES,
  type CensusServer,
  type PreparedCensus,
} from './probe-census-prepare.js';
import type { Say } from '../../app/say.js';
import { writeReports } from '../../app/write-reports.js';

/** A server's error in the table, at most (a PlanError lists the tools the server lists). */
const ERROR_CHARS = 1_000;

export const NETWORK = 'loopback only (bubblewrap --unshare-net)';

export interface CensusSettings {
  /** The library folder as given: the table's `method.library`. */
  dir: string;
  out: string;
  cacheDir?: string;
  /** `--no-install`: false. */
  install: boolean;
  timeoutMs?: number;
  keepScratch: boolean;
  /** Aborted by the first signal: the server being probed is stopped, no other starts. */
  signal?: AbortSignal;
}

export type CensusEvent =
  | { type: 'install'; event: InstallEvent }
  /** A server done (or not probed): its table entry and rows, and its probe's warnings. */
  | { type: 'server'; server: BehaviourServer; rows: BehaviourRow[]; warnings: string[] }
  | { type: 'kept'; scratch: string };

export interface CensusFacts {
  table: BehaviourTable;
  /** The files written, the table's first. */
  files: string[];
  /** A probe report went to a fallback file. */
  outputsFailed: boolean;
  interrupted: boolean;
}

export async function runCensus(
  prepared: PreparedCensus,
  settings: CensusSettings,
  io: { say: Say; onEvent: (e: CensusEvent) => void },
): Promise<CensusFacts> {
  const files: string[] = [];
  let outputsFailed = false;
  const parts: ReturnType<typeof behaviourOf>[] = [];
  try {
    const failed = settings.install ? await installAll(prepared.servers, settings, io.onEvent) : new Map();
    for (const s of prepared.servers) {
      const installError = failed.get(s.entry.package);
      // After a signal, every server left is "not probed" (censusOne), whatever its install did.
      const done =
        installError && !settings.signal?.aborted
          ? notInstalled(s, installError)
          : await censusOne(s, settings, io.say);
      // Its backend is gone with it: no server's state outlives its probe (--keep-scratch keeps them all).
      if (!settings.keepScratch) await removeScratch([s]);
      if (done.file) files.push(done.file);
      outputsFailed ||= done.outputsFailed;
      const part = behaviourOf(done.run);
      parts.push(part);
      io.onEvent({ type: 'server', ...part, warnings: done.warnings });
    }
  } finally {
    if (settings.keepScratch) for (const s of prepared.servers) io.onEvent({ type: 'kept', scratch: s.scratch });
    else await removeScratch(prepared.servers);
  }
  // The auto census's rows in the table already there stay beside the library's.
  const kept = await otherMethodParts(path.join(settings.out, 'behaviour.json'), 'plan', io.say);
  const targets = kept.parts.length ? kept.method?.targets : undefined;
  const table = behaviourTable({ ...tableHead(settings), ...(targets ? { targets } : {}) }, [...parts, ...kept.parts]);
  const written = await writeTable(table, settings.out, io.say);
  return {
    table,
    files: [...written.files, ...files],
    outputsFailed: outputsFailed || written.failed,
    interrupted: !!settings.signal?.aborted,
  };
}

const tableHead = (settings: CensusSettings) => ({
  generatedAt: new Date().toISOString(),
  idemscanVersion: TOOL_VERSION,
  library: settings.dir,
  network: NETWORK,
  node: process.version,
});

/** The packages into the cache, as `idemscan install` does (a signal stops them); by spec, the ones that failed. */
async function installAll(
  servers: readonly CensusServer[],
  settings: CensusSettings,
  onEvent: (e: CensusEvent) => void,
): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  const options = { concurrency: 2, cacheDir: settings.cacheDir, signal: settings.signal };
  await installTargets(
    servers.map((s) => s.target),
    options,
    (event) => {
      if (event.type === 'refused') failed.set(event.spec, event.error);
      if (event.type === 'done' && !event.result.ok) failed.set(event.result.spec, event.result.error ?? 'failed');
      onEvent({ type: 'install', event });
    },
  );
  return failed;
}

/** Bounded and redacted like every text of its probe report. */
function errorText(s: CensusServer, text: string): string {
  const secrets = [...(s.target.secrets ?? []), ...planSecrets(s.plan)];
  return bounded(new Redactor({ ...s.target, secrets }).text(text), ERROR_CHARS);
}

/** A server whose package did not install: its install error, not a probe's "not installed". */
function notInstalled(s: CensusServer, error: string): Done {
  const run = { name: s.entry.name, package: s.entry.package, planned: Object.keys(s.plan.tools) };
  return {
    run: { ...run, error: errorText(s, `install failed: ${error}`) },
    warnings: [],
    outputsFailed: false,
  };
}

interface Done {
  run: ServerRun;
  warnings: string[];
  file?: string;
  outputsFailed: boolean;
}

/** One server probed (or not, once a signal came), and its probe report written to reports/NAME.json. */
async function censusOne(s: CensusServer, settings: CensusSettings, say: Say): Promise<Done> {
  const { entry } = s;
  const base = { name: entry.name, package: entry.package, planned: Object.keys(s.plan.tools) };
  const run: ServerRun = { ...base, ...(entry.expect ? { expect: entry.expect } : {}) };
  if (settings.signal?.aborted)
    return { run: { ...run, error: 'not probed: the run was interrupted' }, warnings: [], outputsFailed: false };
  const probed = await probeOne(s, settings);
  if ('error' in probed) return { run: { ...run, error: probed.error }, warnings: [], outputsFailed: false };
  if (settings.signal?.aborted)
    return { run: { ...run, error: 'interrupted during its probe' }, warnings: probed.warnings, outputsFailed: false };
  const relative = path.join(REPORTS_DIR, `${entry.name}.json`);
  const file = path.join(settings.out, relative);
  // The report writer's own lines (wrote, the HTML hint) would be one per server: the CLI lists the files once.
  const quiet: Say = { ...say, note: () => {}, lines: (text, always) => always && say.lines(text, always) };
  const written = await writeReports(streamOf(probed.report), { formats: [], json: file }, 'probe', {
    print: () => {},
    say: quiet,
  });
  const server = probed.report.servers[0];
  return {
    run: { ...run, ...(server ? { server } : {}), report: relative },
    warnings: probed.warnings,
    ...(written.ok ? { file } : {}),
    outputsFailed: !written.ok,
  };
}

/** `probe()` under the sandbox with the scratch directory bound; a PlanError or a crash as the server's error. */
async function probeOne(
  s: CensusServer,
  settings: CensusSettings,
): Promise<{ report: Report; warnings: string[] } | { error: string }> {
  const { probeTarget } = await import('../../app/probe/probe.js');
  try {
    return await probeTarget(s.target, s.plan, {
      sandbox: true,
      writable: s.writable,
      timeoutMs: settings.timeoutMs,
      cacheDir: settings.cacheDir,
      planFile: s.entry.file,
      signal: settings.signal,
    });
  } catch (err) {
    // Unescaped, as every server text of the table: its readers escape it.
    return { error: errorText(s, String((err as Error)?.message ?? err)) };
  }
}

/** An unwritable file goes to a fallback, as a scan's reports do, and `failed` makes the exit 4. */
export async function writeTable(
  table: BehaviourTable,
  out: string,
  say: Say,
): Promise<{ files: string[]; failed: boolean }> {
  const { behaviourHtml, behaviourMarkdown } = await import('./behaviour-render.js');
  const texts = [JSON.stringify(table, null, 2) + '\n', behaviourMarkdown(table), behaviourHtml(table)];
  const files: string[] = [];
  let failed = false;
  for (const [i, name] of TABLE_FILES.entries()) {
    const file = path.join(out, name);
    try {
      await writeOutputFile(file, texts[i]!);
      files.push(file);
    } catch (err) {
      const saved = await writeFallback(name, texts[i]!);
      say.warn(msg`could not write ${show.path(file)} (${codeOf(err)}): saved to ${show.path(saved)}`);
      files.push(saved);
      failed = true;
    }
  }
  return { files, failed };
}
