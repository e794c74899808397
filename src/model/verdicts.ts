// Every reporter describes and counts verdicts through this module, so none judges a tool a second time.
import type { Summary, ToolReport, Verdict } from './schema.js';

export type VerdictField = 'readOnly' | 'protocolKeyed' | 'keyed' | 'idempotent' | 'unprotected';

export interface VerdictInfo {
  id: Verdict;
  /** Smaller is safer (DESIGN.md §3); also the display order. */
  rank: number;
  summaryField: VerdictField;
  /** A key makes a retry safe without trusting the server's hints. */
  protects: boolean;
  label: string;
  /** CSS class suffix; fixed strings, never text from the report. */
  css: string;
  /** A glyph beside the word, so the verdict never relies on colour alone. */
  mark: string;
  meaning: string;
  /** Safe to retry without trusting the hints: read-only, or protected. */
  retrySafe: boolean;
}

/** The compiler checks that every verdict has every fact. */
export const VERDICT = {
  'read-only': {
    rank: 0,
    summaryField: 'readOnly',
    protects: false,
    label: 'read-only',
    css: 'ro',
    mark: '✓',
    meaning: 'retry freely (readOnlyHint: true)',
    retrySafe: true,
  },
  'protocol-keyed': {
    rank: 1,
    summaryField: 'protocolKeyed',
    protects: true,
    label: 'protocol-keyed',
    css: 'pk',
    mark: '✓',
    meaning: 'retry with the same idempotencyKey (server advertises tools.idempotency)',
    retrySafe: true,
  },
  keyed: {
    rank: 2,
    summaryField: 'keyed',
    protects: true,
    label: 'keyed',
    css: 'ky',
    mark: '✓',
    meaning: 'retry with the same key argument (a strong key-shaped argument)',
    retrySafe: true,
  },
  idempotent: {
    rank: 3,
    summaryField: 'idempotent',
    protects: false,
    label: 'hint only',
    css: 'id',
    mark: '≈',
    meaning: 'retry only if you trust the server (idempotentHint: true alone)',
    retrySafe: false,
  },
  unprotected: {
    rank: 4,
    summaryField: 'unprotected',
    protects: false,
    label: 'unprotected',
    css: 'un',
    mark: '✗',
    meaning: 'a retry may repeat the effect',
    retrySafe: false,
  },
} as const satisfies Record<Verdict, Omit<VerdictInfo, 'id'>>;

/** Safest first, the order of the verdict rules (DESIGN.md §3). */
export const VERDICTS: readonly VerdictInfo[] = (Object.keys(VERDICT) as Verdict[])
  .map((id): VerdictInfo => ({ id, ...VERDICT[id] }))
  .sort((a, b) => a.rank - b.rank);

export const VERDICT_ORDER: readonly Verdict[] = VERDICTS.map((v) => v.id);

export function verdictInfo(v: Verdict): VerdictInfo {
  return VERDICTS.find((x) => x.id === v) ?? VERDICTS[VERDICTS.length - 1]!;
}

export const verdictRank = (v: Verdict): number => (Object.hasOwn(VERDICT, v) ? VERDICT[v].rank : -1);

/** Each hint's field of `effective` and the spec's default. */
export const HINTS = {
  readOnlyHint: { field: 'readOnly', default: false, safe: true },
  destructiveHint: { field: 'destructive', default: true, safe: false },
  idempotentHint: { field: 'idempotent', default: false, safe: true },
  openWorldHint: { field: 'openWorld', default: true, safe: false },
} as const;

export type HintName = keyof typeof HINTS;
export const HINT_NAMES = Object.keys(HINTS) as HintName[];

/** JSON, so the string `"true"` never reads as the boolean; the one way every reporter shows a raw hint. */
export function receivedText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function hintText(annotations: Record<string, unknown> | undefined, hint: HintName): string | undefined {
  return annotations && Object.hasOwn(annotations, hint) ? receivedText(annotations[hint]) : undefined;
}

/** The value when it is a boolean, else the spec default. */
export function effectiveHint(hint: HintName, annotations: Record<string, unknown> | undefined): boolean {
  const v = annotations?.[hint];
  return typeof v === 'boolean' ? v : HINTS[hint].default;
}

/** A title alone says nothing. */
export function isAnnotated(annotations: Record<string, unknown> | undefined): boolean {
  return HINT_NAMES.some((name) => typeof annotations?.[name] === 'boolean');
}

export type VerdictCounts = Record<Verdict, number>;

export function zeroCounts(): VerdictCounts {
  return Object.fromEntries(VERDICT_ORDER.map((v) => [v, 0])) as VerdictCounts;
}

/** Every verdict present, 0 when none. */
export function countVerdicts(tools: readonly Pick<ToolReport, 'verdict'>[]): VerdictCounts {
  const counts = zeroCounts();
  for (const t of tools) if (t.verdict in counts) counts[t.verdict] += 1;
  return counts;
}

export function summaryCounts(s: Summary): VerdictCounts {
  return Object.fromEntries(VERDICTS.map((v) => [v.id, s[v.summaryField]])) as VerdictCounts;
}

export function verdictFields(c: VerdictCounts): Record<VerdictField, number> {
  return Object.fromEntries(VERDICTS.map((v) => [v.summaryField, c[v.id]])) as Record<VerdictField, number>;
}

export function protectedCount(c: Readonly<Record<Verdict, number>>): number {
  return VERDICTS.filter((v) => v.protects).reduce((n, v) => n + c[v.id], 0);
}

export const total = (c: VerdictCounts): number => VERDICT_ORDER.reduce((n, v) => n + c[v], 0);

export function retryFigures(c: VerdictCounts): { writes: number; safe: number } {
  return { writes: total(c) - c['read-only'], safe: protectedCount(c) };
}

/** `<1%` for a share above 0 that would round to 0, `-` of nothing. */
export function share(part: number, whole: number): string {
  if (whole <= 0) return '-';
  const p = (part / whole) * 100;
  return `${p > 0 && p < 1 ? '<1' : Math.round(p)}%`;
}

/** "5 of 945 tools that are not read-only can be retried safely (1%)", in every reporter. */
export function headlineText(c: VerdictCounts): string {
  const n = total(c);
  if (n === 0) return 'No tools were listed';
  const { writes, safe } = retryFigures(c);
  if (writes === 0)
    return `All ${plural(n, 'tool')} ${n === 1 ? 'is' : 'are'} read-only: ${n === 1 ? 'it' : 'every one'} can be retried freely`;
  return `${safe.toLocaleString('en-US')} of ${plural(writes, 'tool')} that ${writes === 1 ? 'is' : 'are'} not read-only can be retried safely (${share(safe, writes)})`;
}

/** The same words in every reporter and in README's "What to do with the verdicts". */
export function retryAdvice(c: VerdictCounts): string | undefined {
  const u = c.unprotected;
  if (u === 0) return undefined;
  const them = u === 1 ? 'the unprotected tool' : `the ${u.toLocaleString('en-US')} unprotected tools`;
  return `Do not let a client retry ${them} automatically: ask the user first, and prefer keyed tools, sending the same key on a retry`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
