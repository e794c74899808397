/** Derived once per report for the table, Markdown and HTML; no markup here. */
import { RULE } from '../model/catalogue.js';
import type { Report, ServerReport } from '../model/schema.js';
import {
  countVerdicts,
  protectedCount,
  retryFigures,
  share,
  summaryCounts,
  type VerdictCounts,
} from '../model/verdicts.js';

/** What every reporter shows of one server. */
export interface ServerView {
  /** Its tools by verdict. */
  counts: VerdictCounts;
  /** protocol-keyed + keyed. */
  protected: number;
  /** Listed, but the listing ended early (`tool-list-incomplete`). */
  partial: boolean;
}

const views = new WeakMap<ServerReport, ServerView>();

export function serverView(s: ServerReport): ServerView {
  let v = views.get(s);
  if (!v) {
    const counts = countVerdicts(s.tools);
    v = {
      counts,
      protected: protectedCount(counts),
      partial: s.findings.some((f) => f.rule === RULE.toolListIncomplete),
    };
    views.set(s, v);
  }
  return v;
}

export interface Headline {
  /** Tools that are not read-only. */
  writes: number;
  /** protocol-keyed + keyed: a client can retry them safely. */
  safe: number;
  protocolKeyed: number;
  keyed: number;
  /** Only hint-idempotent: safe if the server is trusted. */
  hintOnly: number;
  unprotected: number;
  /** Of the unprotected, those that declare no hint at all (undefined: a report that does not say). */
  undeclared?: number;
  tools: number;
  servers: number;
  serversOk: number;
  serversFailed: number;
}

export function headline(report: Pick<Report, 'summary'>): Headline {
  const s = report.summary;
  const { writes, safe } = retryFigures(summaryCounts(s));
  return {
    writes,
    safe,
    protocolKeyed: s.protocolKeyed,
    keyed: s.keyed,
    hintOnly: s.idempotent,
    unprotected: s.unprotected,
    undeclared: s.unprotectedUndeclared,
    tools: s.tools,
    servers: s.servers,
    serversOk: s.serversOk,
    serversFailed: s.serversFailed,
  };
}

/** Overall counts by verdict, from the summary. */
export function overall(report: Report): VerdictCounts {
  return summaryCounts(report.summary);
}

/** A share for the page: `0%` of nothing (the page's cells never show `-`). */
export function percent(part: number, whole: number): string {
  return whole <= 0 ? '0%' : share(part, whole);
}

/** Undefined when the scan ran to its end or the report does not say. */
export function notScanned(report: Report): number | undefined {
  const { interrupted, targets, scanned } = report.options;
  if (interrupted !== true) return undefined;
  const n = typeof targets === 'number' && typeof scanned === 'number' ? targets - scanned : NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** `2026-11-29 07:30 UTC`; the input as given when it is not a date. */
export function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function duration(fromIso: string, toIso: string): string {
  const ms = new Date(toIso).getTime() - new Date(fromIso).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The target files the servers came from (`file#servers[0]` → `file`), in order of first use. */
export function targetFiles(report: Report): string[] {
  const files = [...report.servers.map((s) => s.target.source), ...(report.skipped ?? []).map((k) => k.source)]
    .filter((x): x is string => typeof x === 'string' && x.length > 0)
    .map((x) => x.split('#', 1)[0]!);
  return [...new Set(files)];
}
