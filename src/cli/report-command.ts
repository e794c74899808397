/**
 * `idemscan report FILE.json [--format html,md] [--out DIR]`: re-render a saved report without
 * scanning again. The file must be a valid report (the zod `Report` schema); a bad file is a usage
 * error (exit 2) naming the file and the first fields that are wrong.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { z } from 'zod';
import { reporter } from '../report/reporters/index.js';
import { Report } from '../report/schema.js';
import { safeText } from '../report/terminal.js';
import { UsageError } from './exit.js';

export interface ReportFlags {
  format: string;
  out?: string;
}

/** `servers[0].tools[2].verdict: Invalid option: ...`, up to three issues. */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
    return `${where || '(top level)'}: ${issue.message}`;
  });
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

export async function loadReport(file: string): Promise<Report> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (err) {
    throw new UsageError(`${file}: not JSON: ${(err as Error).message}`);
  }
  const parsed = Report.safeParse(doc);
  if (!parsed.success) throw new UsageError(`${file}: not an idemscan report: ${safeText(describeIssues(parsed.error), 1_000)}`);
  return parsed.data;
}

export async function reportCommand(file: string, flags: ReportFlags): Promise<void> {
  const formats = flags.format.split(',').map((f) => f.trim()).filter(Boolean);
  if (formats.length === 0) throw new UsageError('--format: no format given');
  const reporters = formats.map((f) => {
    try {
      return reporter(f);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  });
  const report = await loadReport(file);
  const out = flags.out ?? path.dirname(file);
  for (const r of reporters) {
    if (r.fileName && path.resolve(out, r.fileName) === path.resolve(file)) {
      throw new UsageError(`${file}: --format ${r.id} would overwrite the input; choose another --out`);
    }
  }
  for (const r of reporters) {
    const rendered = r.render(report);
    if (!r.fileName) {
      process.stdout.write(rendered);
      continue;
    }
    const target = path.join(out, r.fileName);
    await mkdir(out, { recursive: true });
    await writeFile(target, rendered);
    process.stderr.write(`idemscan: wrote ${target}\n`);
  }
}

/** Registers `report` on the program. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('re-render a saved report.json in other formats, without scanning again')
    .argument('<file>', 'a report written by scan or audit (report.json)')
    .option('--format <list>', 'formats, comma-separated (files go under --out; table and tools print)', 'html')
    .option('--out <dir>', 'directory for the files (default: the report file\'s directory)')
    .action(reportCommand);
}
