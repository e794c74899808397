/** Numbers and words the page shows, derived from a report: no HTML here. */
import type { Report, ServerReport, Verdict } from '../../schema.js';

export interface VerdictInfo {
  id: Verdict;
  /** CSS class suffix; fixed strings, never text from the report. */
  css: string;
  /** A glyph next to the word, so the verdict never relies on colour alone. */
  mark: string;
  meaning: string;
}

/** Verdicts in precedence order (README), with what they tell a client. */
export const VERDICTS: readonly VerdictInfo[] = [
  { id: 'read-only', css: 'ro', mark: '✓', meaning: 'retry freely (readOnlyHint: true)' },
  { id: 'protocol-keyed', css: 'pk', mark: '✓', meaning: 'retry with the same idempotencyKey (server advertises tools.idempotency)' },
  { id: 'keyed', css: 'ky', mark: '✓', meaning: 'retry with the same key argument (a strong key-shaped argument)' },
  { id: 'idempotent', css: 'id', mark: '≈', meaning: 'retry only if you trust the server (idempotentHint: true alone)' },
  { id: 'unprotected', css: 'un', mark: '✗', meaning: 'a retry may repeat the effect' },
];

export const verdictInfo = (v: Verdict): VerdictInfo => VERDICTS.find((x) => x.id === v) ?? VERDICTS[VERDICTS.length - 1]!;

export type VerdictCounts = Record<Verdict, number>;

export function countVerdicts(server: ServerReport): VerdictCounts {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v.id, 0])) as VerdictCounts;
  for (const t of server.tools) if (t.verdict in counts) counts[t.verdict] += 1;
  return counts;
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
  tools: number;
  servers: number;
  serversOk: number;
  serversFailed: number;
}

export function headline(report: Report): Headline {
  const s = report.summary;
  return {
    writes: s.notReadOnly,
    safe: s.protocolKeyed + s.keyed,
    protocolKeyed: s.protocolKeyed,
    keyed: s.keyed,
    hintOnly: s.idempotent,
    unprotected: s.unprotected,
    tools: s.tools,
    servers: s.servers,
    serversOk: s.serversOk,
    serversFailed: s.serversFailed,
  };
}

/** Overall counts by verdict, from the summary. */
export function overall(report: Report): VerdictCounts {
  const s = report.summary;
  return { 'read-only': s.readOnly, 'protocol-keyed': s.protocolKeyed, keyed: s.keyed, idempotent: s.idempotent, unprotected: s.unprotected };
}

export function percent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  const p = (part / whole) * 100;
  return `${p > 0 && p < 1 ? '<1' : Math.round(p)}%`;
}

/** `2026-11-29 07:30 UTC`; the input as given when it is not a date. */
export function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function duration(fromIso: string, toIso: string): string {
  const ms = new Date(toIso).getTime() - new Date(fromIso).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The target files the servers came from (`file#servers[0]` → `file`), in order of first use. */
export function targetFiles(report: Report): string[] {
  const files = [...report.servers.map((s) => s.target.source), ...(report.skipped ?? []).map((k) => k.source)]
    .filter((x): x is string => typeof x === 'string' && x.length > 0)
    .map((x) => x.split('#', 1)[0]!);
  return [...new Set(files)];
}

/** `a verdict`, `2 verdicts`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
