/** Suppressed findings stay in the report (SARIF: dismissed), uncounted by `--fail-on`; `expires` forces a new look. */
import type { Finding, ServerReport, ToolReport } from '../model/schema.js';
import { NameMatcher } from '../model/server-names.js';
import { SuppressEntry, type Suppressions } from '../model/suppress.js';
import { describeZodError } from '../model/zod-errors.js';
import { MAX_JSON_DEPTH, parseJson } from '../model/bounded-input.js';
import { ReportFileError, SAVED_BOUNDS } from './read.js';

/** `suppressions[2] (rule missing-annotations, tool get_page)`: an entry as its author finds it. */
export function entryLabel(entries: readonly unknown[], index: number): string {
  const e = entries[index];
  const o = e && typeof e === 'object' ? (e as Record<string, unknown>) : {};
  const parts = (['rule', 'verdict', 'tool', 'server'] as const)
    .filter((k) => typeof o[k] === 'string')
    .map((k) => `${k} ${String(o[k]).slice(0, 80)}`);
  return `suppressions[${index}]${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** A bad file is a ReportFileError naming the entry and field. */
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
      `expected an array of {rule, tool?, server?, reason, expires?} or {verdict, tool, server?, reason, expires?}, or {"suppressions": [...]}${extra.length ? ` (unknown field "${extra[0]!.slice(0, 80)}")` : ''}`,
    );
  }
  // The message names the entry by what it says (rule or verdict, tool, server), not by zod's union paths.
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
  /** Tools whose verdict was marked accepted. */
  accepted: number;
  /** Entries past their date, with their index: they no longer apply. */
  expired: { index: number; entry: SuppressEntry }[];
  /** Entries that matched no finding or tool (a typo, or a finding since fixed, a verdict since changed). */
  unused: { index: number; entry: SuppressEntry }[];
}

/** An entry that still applies, with its place in the file and its server matcher built once. */
interface Active {
  index: number;
  entry: SuppressEntry;
  server?: NameMatcher;
}

/** Each finding takes the first matching entry in file order, so a server's marks do not depend on the others. */
export class SuppressFold {
  private readonly active: Active[] = [];
  private readonly used = new Set<number>();
  private readonly expired: SuppressOutcome['expired'] = [];
  private applied = 0;
  private accepted = 0;
  /** The file's base name, as the report's findings and options name it. */
  readonly file: string;

  constructor(
    private readonly suppressions: Suppressions,
    now = new Date(),
  ) {
    const date = today(now);
    this.file = suppressions.file.split(/[\\/]/).pop() ?? suppressions.file;
    suppressions.entries.forEach((entry, index) => {
      if (entry.expires !== undefined && entry.expires < date) this.expired.push({ index, entry });
      // By the shown name, never serverInfo.name: any server of a list can call itself by another's name.
      else
        this.active.push({
          index,
          entry,
          server: entry.server === undefined ? undefined : new NameMatcher([entry.server]),
        });
    });
  }

  /** The first active entry of the server that `matches`, counted as used when `count`. */
  private hit(s: ServerReport, count: boolean, matches: (e: SuppressEntry) => boolean): SuppressEntry | undefined {
    const hit = this.active.find((a) => matches(a.entry) && (!a.server || a.server.matches({ target: s.name })));
    if (hit && count) this.used.add(hit.index);
    return hit?.entry;
  }

  /** The mark's reason, date and file, as a finding's `suppressed` and a tool's `accepted` hold them. */
  private why(e: SuppressEntry): { reason: string; expires?: string; file: string } {
    return { reason: e.reason, ...(e.expires ? { expires: e.expires } : {}), file: this.file };
  }

  /** Marks matches in place; `count: false` for a second pass over the same servers. */
  mark(s: ServerReport, count = true): ServerReport {
    const mark = (f: Finding) => {
      if (f.suppressed) return;
      const hit = this.hit(s, count, (e) => e.rule === f.rule && (e.tool === undefined || f.tool === e.tool));
      if (!hit) return;
      f.suppressed = this.why(hit);
      if (count) this.applied++;
    };
    const accept = (t: ToolReport) => {
      if (t.accepted) return;
      const hit = this.hit(s, count, (e) => e.verdict === t.verdict && e.tool === t.name);
      if (!hit) return;
      t.accepted = { verdict: t.verdict, ...this.why(hit) };
      if (count) this.accepted++;
    };
    s.findings.forEach(mark);
    for (const t of s.tools) {
      t.findings.forEach(mark);
      accept(t);
    }
    return s;
  }

  /** After the last server: what was marked, and the entries that expired or matched nothing. */
  outcome(): SuppressOutcome {
    const unused = this.active.filter((a) => !this.used.has(a.index)).map(({ index, entry }) => ({ index, entry }));
    return { applied: this.applied, accepted: this.accepted, expired: this.expired, unused };
  }

  /** The report's `options.suppress` (`accepted` only when a verdict was: older reports' shape otherwise). */
  option(): { file: string; entries: number; applied: number; expired: number; accepted?: number } {
    const { file, accepted } = this;
    return {
      file,
      entries: this.suppressions.entries.length,
      applied: this.applied,
      expired: this.expired.length,
      ...(accepted > 0 ? { accepted } : {}),
    };
  }
}
