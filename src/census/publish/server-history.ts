/** Folded a report at a time (a year of runs never in memory); names reach page names only via `pageNames`. */
import { createHash } from 'node:crypto';
import { serverVersion } from '../../model/package-spec.js';
import type { Report, ServerReport } from '../../model/schema.js';
import { VERDICTS, type VerdictCounts } from '../../model/verdicts.js';
import { compareText } from '../../compare/diff.js';
import type { RunEntry, RunIndex } from './index-format.js';

/** One server in one run: what its page shows in that run's row. */
export interface ServerRun {
  /** The run directory: its entry in the index has the rest (date, files, list). */
  dir: string;
  status: ServerReport['status'];
  /** The failure's kind (`spawn`, `timeout`, ...), when it failed. */
  failure?: string;
  /** The npm or PyPI package, when the server was installed from one. */
  package?: string;
  version?: string;
  era?: string;
  tools: number;
  counts: VerdictCounts;
  /** Equal in two runs: no definition changed. Absent when a tool has no hash. */
  definitions?: string;
}

function serverRun(dir: string, s: ServerReport): ServerRun {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v.id, 0])) as VerdictCounts;
  for (const t of s.tools) counts[t.verdict]++;
  return {
    dir,
    status: s.status,
    ...(s.failure ? { failure: s.failure.kind } : {}),
    ...serverVersion(s),
    ...(s.protocol ? { era: s.protocol.era } : {}),
    tools: s.tools.length,
    counts,
    ...definitionsOf(s),
  };
}

function definitionsOf(s: ServerReport): { definitions?: string } {
  if (s.status !== 'ok' || s.tools.some((t) => t.definitionHash === undefined)) return {};
  const lines = s.tools.map((t) => JSON.stringify([t.name, t.definitionHash])).sort(compareText);
  return { definitions: createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex') };
}

export interface ServerRow {
  run: RunEntry;
  server: ServerRun;
}

/** Servers by name, each with its runs; reports may be added in any order (rows() orders them as the index). */
export class ServerHistory {
  private readonly byName = new Map<string, ServerRun[]>();

  /** One run's servers (a name listed twice in one report counts once, as its first). */
  add(dir: string, report: Pick<Report, 'servers'>): void {
    const seen = new Set<string>();
    for (const s of report.servers) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      const runs = this.byName.get(s.name) ?? [];
      runs.push(serverRun(dir, s));
      this.byName.set(s.name, runs);
    }
  }

  names(): string[] {
    return [...this.byName.keys()].sort(compareText);
  }

  /** A server's runs that the index has, in its order (newest first), each with its entry. */
  rows(name: string, index: RunIndex): ServerRow[] {
    const mine = new Map((this.byName.get(name) ?? []).map((r) => [r.dir, r]));
    return index.runs.flatMap((run) => {
      const server = mine.get(run.dir);
      return server ? [{ run, server }] : [];
    });
  }
}

/** Characters of a page name taken from the server name, at most (the hash suffix comes on top). */
const PAGE_NAME_CHARS = 80;

/** Stable, case-insensitive-safe file names: unsafe names get a slug and 8 hex of sha256; clashes a counter. */
export function pageNames(names: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  const sorted = [...new Set(names)].sort(compareText);
  // Names that are their own page first: a made name never takes the page of a server so named.
  const own = sorted.filter((name) => pageName(name) === name);
  for (const name of [...own, ...sorted.filter((name) => pageName(name) !== name)]) {
    const made = pageName(name);
    let page = made;
    for (let n = 2; taken.has(page); n++) page = `${made}-${n}`;
    taken.add(page);
    out.set(name, page);
  }
  return out;
}

function pageName(name: string): string {
  const plain = (c: string) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_';
  let safe = '';
  for (const c of name.slice(0, PAGE_NAME_CHARS)) {
    if (c >= 'A' && c <= 'Z') safe += c.toLowerCase();
    else if (plain(c) || ((c === '-' || c === '.') && safe !== '')) safe += c;
    else if (safe !== '' && !safe.endsWith('-')) safe += '-';
  }
  if (safe === name && name !== '') return name;
  // Only letters, digits, `_` and single `-` in a name made from another: no `.` to make `..` of.
  let base = '';
  for (const c of safe) base += c === '.' ? '-' : c;
  while (base.includes('--')) base = base.replaceAll('--', '-');
  if (base.endsWith('-')) base = base.slice(0, -1);
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 8);
  return base === '' ? hash : `${base}-${hash}`;
}
