import {
  auditTargets,
  checkSettings,
  runSettings,
  scanTargets,
  type CheckedSettings,
  type RunKind,
  type Target,
} from '../app/scan/scan-inputs.js';
import { failOnText } from '../app/scan/fail-on.js';
import { unscannedText } from '../app/interrupt.js';
import { runScan, type ScanEvents, type ScanFacts, type ScanResult } from '../app/scan/scan-run.js';
import { EXIT } from '../shell/exit.js';
import * as say from '../shell/say.js';
import type { AuditFlags, ScanFlags } from './flags.js';
import { watchSignals } from '../shell/signals.js';
import { ScanProgress } from './progress.js';
import { sandboxLines } from '../render/sandbox-lines.js';
import { printResult, reportFileOf } from './print-scan.js';

// The flags become targets and settings in app/scan/scan-inputs.ts; this runs them with the terminal's
// progress and signals, prints the result and sets the exit code.

export async function scanCommand(files: string[], flags: ScanFlags): Promise<void> {
  const { checked, targets, skipped, shard } = await scanTargets(files, flags, say);
  await run(checked, targets, flags, { writer: flags.lock === undefined ? 'scan' : 'lock', skipped, shard });
}

export async function auditCommand(words: string[], flags: AuditFlags): Promise<void> {
  const targets = await auditTargets(words, flags);
  // The URL given here is the one server --client-id is for.
  await run(await checkSettings(flags), targets, flags, {
    writer: 'audit',
    nameFromServerInfo: flags.name === undefined && flags.tools === undefined,
    named: targets[0]?.kind === 'remote' ? targets[0].url : undefined,
    saveTools: flags.saveTools,
  });
}

async function run(checked: CheckedSettings, targets: Target[], flags: ScanFlags, kind: RunKind): Promise<void> {
  const settings = await runSettings(checked, targets, flags, kind, say.block);
  const progress = new ScanProgress(process.stderr, flags.quiet); // progress lines have their own writer
  const interrupt = watchSignals();
  const options = { ...settings.options, signal: interrupt.signal, onProgress: progress.onEvent };
  const result = await runScan({ ...settings, options, interrupt }, events(progress, targets.length));
  await showResult(result, flags, kind.writer === 'audit' ? 'tools' : 'table');
  result.close();
  // Read again: a signal that came while the table was printed still decides the exit.
  process.exitCode = exitCode({ ...result.facts, interrupted: interrupt.interrupted });
}

/** The table (audit: the tool view), then which sandbox ran. */
async function showResult(result: ScanResult, flags: ScanFlags, view: 'table' | 'tools'): Promise<void> {
  await printResult(result.report, view, {
    quiet: flags.quiet,
    jsonToStdout: flags.json === '-',
    rulesBaseUrl: flags.rulesBaseUrl,
    reportFile: reportFileOf(flags),
  });
  const sandboxed = result.report.head.options.sandbox === true;
  const { writable } = result.report.head.options;
  for (const line of sandboxLines(result.sandbox, sandboxed, process.getuid?.() === 0, writable)) say.note(line);
}

/** What the run says, on stderr through say.ts; `--json -` on stdout; the progress line gone once the scan is. */
function events(progress: ScanProgress, targets: number): ScanEvents {
  return {
    warn: say.warn,
    tell: say.tell,
    note: say.note,
    lines: say.lines,
    print: (text) => void process.stdout.write(text),
    scanned: () => progress.stop(),
    unscanned: (remaining) => {
      const text = unscannedText(progress.unscanned(remaining), targets);
      if (text) say.tell(text);
    },
  };
}

/** The exit code of the facts, and the --fail-on matches said when they decide it. */
function exitCode(facts: ScanFacts): number {
  let code: number = EXIT.ok;
  if (facts.interrupted) code = EXIT.interrupted;
  else if (facts.allFailed) code = EXIT.allFailed;
  else if (facts.failOn.length > 0) {
    say.lines(failOnText(facts.failOn), true);
    code = EXIT.failOn;
  }
  return facts.outputsFailed && code !== EXIT.interrupted ? EXIT.outputFailed : code;
}
