/**
 * `idemscan diff OLD.json NEW.json`: what changed between two reports.
 * Exit codes: 0 compared (and nothing matched --fail-on), 1 --fail-on regression matched,
 * 2 usage error or a report file that cannot be read or is not a valid report.
 */
import type { Command } from 'commander';
import { diffReports } from '../compare/diff.js';
import { readReportFile, ReportFileError, type LoadedReport } from '../compare/read.js';
import { DIFF_FORMATS, renderDiff, type DiffFormat } from '../compare/render.js';
import { safeText } from '../report/terminal.js';
import { EXIT, UsageError } from './exit.js';

const FAIL_ON = ['regression'] as const;

interface DiffFlags {
  format: string;
  failOn?: string;
}

export function registerDiff(program: Command): void {
  program
    .command('diff')
    .description('compare two reports: servers, status, tools, verdicts, hints, key arguments, capability')
    .argument('<old>', 'the earlier report.json')
    .argument('<new>', 'the later report.json')
    .option('--format <format>', `output: ${DIFF_FORMATS.join(', ')}`, 'text')
    .option('--fail-on <what>', 'exit 1 when anything got worse ("regression")')
    .action(diffCommand);
}

export async function diffCommand(oldFile: string, newFile: string, flags: DiffFlags): Promise<void> {
  const format = flags.format as DiffFormat;
  if (!DIFF_FORMATS.includes(format)) throw new UsageError(`unknown --format "${flags.format}" (known: ${DIFF_FORMATS.join(', ')})`);
  if (flags.failOn !== undefined && !(FAIL_ON as readonly string[]).includes(flags.failOn)) {
    throw new UsageError(`unknown --fail-on "${flags.failOn}" (known: ${FAIL_ON.join(', ')})`);
  }
  const [a, b] = [await readOrUsage(oldFile), await readOrUsage(newFile)];
  const doc = diffReports(a, b);
  process.stdout.write(renderDiff(doc, format));
  process.exitCode = flags.failOn === 'regression' && doc.regression ? EXIT.failOn : EXIT.ok;
}

export async function readOrUsage(file: string): Promise<LoadedReport> {
  try {
    return await readReportFile(file);
  } catch (err) {
    if (err instanceof ReportFileError) throw new UsageError(safeText(err.message, 1000));
    throw err;
  }
}
