/**
 * Reads a report file written by `scan`, `audit` or `merge`: its schemaVersion, then the zod
 * `Report` schema. The one loader of `report`, `diff` and `merge`.
 */
import { readBounded, readBoundedText } from '../io/read.js';
import { parseJson, REPORT_DEPTH } from '../model/bounded-input.js';
import { Report, SCHEMA_VERSION, type ServerReport } from '../model/schema.js';
import { InputError } from '../model/input-error.js';
import { describeZodError } from '../model/zod-errors.js';
import { serverAdvice } from '../model/advice.js';
import { countProbes } from '../model/probe-outcomes.js';
import { summarize } from '../model/summary.js';

/**
 * A saved file that cannot be used (a report, a lock file, a run index, suppressions): unreadable,
 * not JSON, or not valid. Names the file and the field; `field` also the flag that named the file.
 */
export class ReportFileError extends InputError {
  declare readonly file: string;

  constructor(file: string, detail: string, field?: string) {
    super(detail, { file, field });
    this.name = 'ReportFileError';
  }
}

/**
 * A saved report, lock file or run index is read whole: at most 256 MB (a census of thousands of
 * servers is tens of MB), nested at most REPORT_DEPTH.
 */
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

/**
 * A saved report's derived fields (each server's advice, the summary) made again from its verdicts
 * by the functions a scan uses, never taken from the file: an edited advice would otherwise sit
 * above a table that says unprotected. `gate`, `drift` and `comparedWith` stay as written.
 */
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

/** A file's bytes, up to SAVED_BOUNDS.maxBytes; one that cannot be read is a ReportFileError naming it (and `field`, the flag). */
export async function readBytes(file: string, field?: string): Promise<Buffer> {
  const got = await readBounded(file, { maxBytes: SAVED_BOUNDS.maxBytes });
  if ('error' in got) throw new ReportFileError(file, got.error, field);
  return got.bytes;
}

/** A file's text, up to SAVED_BOUNDS.maxBytes; one that cannot be read is a ReportFileError naming it (and `field`, the flag). */
export async function readText(file: string, field?: string): Promise<string> {
  const got = await readBoundedText(file, { maxBytes: SAVED_BOUNDS.maxBytes });
  if ('error' in got) throw new ReportFileError(file, got.error, field);
  return got.text;
}

/**
 * A JSON object whose version field (`schemaVersion` of a report, `lockVersion` of a lock file) is
 * the one this idemscan reads, checked before the schema so the error says what is wrong. `field`:
 * the flag that named the file, for the error.
 */
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
