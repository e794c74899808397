/** The one loader of saved reports, for `report`, `diff` and `merge`. */
import { readBounded, readBoundedText } from '../io/read.js';
import { parseJson, REPORT_DEPTH } from '../model/bounded-input.js';
import { Report, SCHEMA_VERSION, type ServerReport } from '../model/schema.js';
import { InputError } from '../model/input-error.js';
import { describeZodError } from '../model/zod-errors.js';
import { serverAdvice } from '../model/advice.js';
import { countProbes } from '../model/probe-outcomes.js';
import { summarize } from '../model/summary.js';

/** A saved file (report, lock, run index, suppressions) that cannot be used; names the file and field. */
export class ReportFileError extends InputError {
  declare readonly file: string;

  constructor(file: string, detail: string, field?: string) {
    super(detail, { file, field });
    this.name = 'ReportFileError';
  }
}

/** A census of thousands of servers is tens of MB. */
export const SAVED_BOUNDS = { maxBytes: 256 * 1024 * 1024, maxDepth: REPORT_DEPTH };

export interface LoadedReport {
  file: string;
  report: Report;
}

export async function readReportFile(file: string): Promise<LoadedReport> {
  return { file, report: parseReport(await readText(file), file) };
}

export function parseReport(text: string, file: string): Report {
  const doc = versionedJson(text, file, 'report', 'schemaVersion', SCHEMA_VERSION);
  const parsed = Report.safeParse(doc);
  if (!parsed.success) throw new ReportFileError(file, `invalid report: ${describeZodError('', parsed.error)}`);
  return recomputed(parsed.data);
}

/** Recomputed, never trusted: an edited advice could sit above a table that says unprotected. */
function recomputed(report: Report): Report {
  const servers = report.servers.map(withAdvice);
  const probe = countProbes(servers.flatMap((s) => s.tools));
  return { ...report, summary: { ...summarize(servers), ...(probe ? { probe } : {}) }, servers };
}

/** The server with the advice of its verdicts, where its stored one stood; none for a failed server. */
function withAdvice(s: ServerReport): ServerReport {
  const { advice: _stored, ...rest } = s;
  const advice = serverAdvice(s);
  return advice === undefined ? rest : { ...s, advice };
}

/** Up to SAVED_BOUNDS.maxBytes; an unreadable file is a ReportFileError naming it (and `field`, the flag). */
export async function readBytes(file: string, field?: string): Promise<Buffer> {
  const got = await readBounded(file, { maxBytes: SAVED_BOUNDS.maxBytes });
  if ('error' in got) throw new ReportFileError(file, got.error, field);
  return got.bytes;
}

/** Up to SAVED_BOUNDS.maxBytes; an unreadable file is a ReportFileError naming it (and `field`, the flag). */
export async function readText(file: string, field?: string): Promise<string> {
  const got = await readBoundedText(file, { maxBytes: SAVED_BOUNDS.maxBytes });
  if ('error' in got) throw new ReportFileError(file, got.error, field);
  return got.text;
}

/** The version field is checked before the schema so the error says what is wrong. */
export function versionedJson(
  text: string,
  file: string,
  kind: string,
  key: string,
  expected: string,
  field?: string,
): Record<string, unknown> {
  const fail = (detail: string) => new ReportFileError(file, detail, field);
  const parsed = parseJson(text, SAVED_BOUNDS);
  if ('error' in parsed) throw fail(parsed.why === 'syntax' ? `not valid JSON: ${parsed.error}` : parsed.error);
  const doc = parsed.value;
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw fail(`not an idemscan ${kind} (expected a JSON object)`);
  const version = (doc as Record<string, unknown>)[key];
  if (version !== expected) {
    throw fail(
      version === undefined
        ? `not an idemscan ${kind} (no ${key})`
        : `${key} ${JSON.stringify(version)} is not supported (this idemscan reads "${expected}")`,
    );
  }
  return doc as Record<string, unknown>;
}
