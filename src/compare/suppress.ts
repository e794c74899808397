/**
 * Suppressions (`--suppress FILE`, default `.idemscan-suppress.json`): findings a repository has
 * reviewed and accepts, each with its reason. A suppressed finding stays in the report with the
 * reason (SARIF marks it dismissed, with the justification, so code scanning shows it closed and
 * why), is dimmed by the reporters and is not counted by `--fail-on`. An entry past its `expires`
 * date no longer applies, and says so: a suppression is a decision to look again, not forever.
 */
import type { Finding, Report } from '../model/schema.js';
import { NameMatcher } from '../model/server-names.js';
import { SuppressEntry, type Suppressions } from '../model/suppress.js';
import { describeZodError } from '../model/zod-errors.js';
import { MAX_JSON_DEPTH, parseJson } from '../model/bounded-input.js';
import { ReportFileError, SAVED_BOUNDS } from './read.js';

/** `suppressions[2] (rule missing-annotations, tool get_page)`: an entry as its author finds it. */
export function entryLabel(entries: readonly unknown[], index: number): string {
  const e = entries[index];
  const o = e && typeof e === 'object' ? (e as Record<string, unknown>) : {};
  const parts = (['rule', 'tool', 'server'] as const)
    .filter((k) => typeof o[k] === 'string')
    .map((k) => `${k} ${String(o[k]).slice(0, 80)}`);
  return `suppressions[${index}]${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * Parses a suppression file; a bad one is a ReportFileError whose message names the entry and field
 * (`flag`: the flag that named the file, `--suppress`).
 */
export function parseSuppressions(text: string, file: string, flag?: string): Suppressions {
  const fail = (detail: string) => new ReportFileError(file, detail, flag);
  // Written by hand and small: nested as deep as any file idemscan reads.
  const parsed = parseJson(text, { maxBytes: SAVED_BOUNDS.maxBytes, maxDepth: MAX_JSON_DEPTH });
  if ('error' in parsed) throw fail(parsed.why === 'syntax' ? `not JSON: ${parsed.error}` : parsed.error);
  const doc = parsed.value;
  const wrapped = doc !== null && typeof doc === 'object' && !Array.isArray(doc);
  const extra = wrapped
    ? Object.keys(doc as object).filter((k) => k !== 'suppressions' && k !== '$schema' && k !== 'comment')
    : [];
  const list = wrapped ? (doc as { suppressions?: unknown }).suppressions : doc;
  if (!Array.isArray(list) || extra.length > 0) {
    throw fail(
      `expected an array of {rule, tool?, server?, reason, expires?}, or {"suppressions": [...]}${extra.length ? ` (unknown field "${extra[0]!.slice(0, 80)}")` : ''}`,
    );
  }
  // Entry by entry: the message names the entry by what it says (rule, tool, server), not by a zod union's paths.
  const entries = list.map((raw, index) => {
    const parsed = SuppressEntry.safeParse(raw);
    if (!parsed.success)
      throw fail(`invalid suppression ${entryLabel(list, index)}: ${describeZodError('', parsed.error)}`);
    return parsed.data;
  });
  return { file, entries };
}

/** Today as YYYY-MM-DD (UTC): an entry applies through its `expires` day. */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);

export interface SuppressOutcome {
  /** Findings marked suppressed. */
  applied: number;
  /** Entries past their date, with their index: they no longer apply. */
  expired: { index: number; entry: SuppressEntry }[];
  /** Entries that matched no finding (a typo, or a finding since fixed). */
  unused: { index: number; entry: SuppressEntry }[];
}

/** Marks the report's matching findings (in place) and tells which entries expired or matched nothing. */
export function applySuppressions(report: Report, suppressions: Suppressions, now = new Date()): SuppressOutcome {
  const date = today(now);
  const out: SuppressOutcome = { applied: 0, expired: [], unused: [] };
  const file = suppressions.file.split(/[\\/]/).pop() ?? suppressions.file;
  suppressions.entries.forEach((entry, index) => {
    if (entry.expires !== undefined && entry.expires < date) {
      out.expired.push({ index, entry });
      return;
    }
    let used = false;
    // By the name the report shows (a list's key; serverInfo.name only after audit without --name),
    // never by serverInfo.name itself: any server of a list can call itself by another's name.
    const server = entry.server === undefined ? undefined : new NameMatcher([entry.server]);
    for (const s of report.servers) {
      if (server && !server.matches({ target: s.name })) continue;
      const mark = (f: Finding) => {
        if (f.rule !== entry.rule || (entry.tool !== undefined && f.tool !== entry.tool) || f.suppressed) return;
        f.suppressed = { reason: entry.reason, ...(entry.expires ? { expires: entry.expires } : {}), file };
        out.applied++;
        used = true;
      };
      s.findings.forEach(mark);
      for (const t of s.tools) t.findings.forEach(mark);
    }
    if (!used) out.unused.push({ index, entry });
  });
  report.options.suppress = {
    file,
    entries: suppressions.entries.length,
    applied: out.applied,
    expired: out.expired.length,
  };
  return out;
}
