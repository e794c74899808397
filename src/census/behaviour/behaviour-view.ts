/** Words made once so both reporters say the same; plain text, each reporter escapes it. */
import type { Agreement, BehaviourRow, BehaviourTable, DeclaredHints } from './behaviour.js';
import { PROBE_OUTCOMES } from '../../model/probe-outcomes.js';
import type { ProbeOutcome } from '../../model/probe-schema.js';
import { plural, VERDICT } from '../../model/verdicts.js';

/** Each agreement's mark and meaning (the rule itself is behaviour-agreement.ts). */
export const AGREEMENTS = {
  agrees: { mark: '=', meaning: 'what the tool declares matches what the probe saw' },
  understates: {
    mark: '▽',
    meaning: 'declares not idempotent (or nothing) but did not repeat its effect on the re-issue',
  },
  overstates: {
    mark: '△',
    meaning:
      'declares read-only, a key or idempotentHint: true, yet repeated its effect (or, read-only, changed state)',
  },
  unknown: { mark: '?', meaning: 'the probe could not tell (inconclusive or failed)' },
} as const satisfies Record<Agreement, { mark: string; meaning: string }>;

export const AGREEMENT_ORDER = Object.keys(AGREEMENTS) as Agreement[];

const count = (n: number) => n.toLocaleString('en-US');

/** "12 servers", or "11 servers (1 more could not be probed)". */
export function serversProbed(table: BehaviourTable): string {
  const { servers, probed } = table.summary;
  return `${plural(probed, 'server')}${servers > probed ? ` (${count(servers - probed)} more could not be probed)` : ''}`;
}

/** The head sentence, from the summary's own counts. */
export function headSentence(table: BehaviourTable): string {
  const s = table.summary;
  const a = (k: Agreement) => count(s.agreements[k] ?? 0);
  return (
    `Of ${plural(s.experiments, 'experiment')} on ${serversProbed(table)}, ` +
    `${a('agrees')} agree with what the tool declares, ` +
    `${a('understates')} understate (declare not idempotent, or nothing, but did not repeat their effect), ` +
    `${a('overstates')} overstate (declare idempotent, a key or read-only and repeated their effect, or changed state while read-only), ` +
    `${a('unknown')} unknown (the probe could not tell)`
  );
}

/** "38 experiments state an expected outcome (worked out from the server's source); 37 matched it, 1 differs." */
export function expectedSentence(table: BehaviourTable): string {
  const { expected, matched } = table.summary;
  if (expected === 0) return 'No experiment states an expected outcome.';
  const differ = expected - matched;
  return (
    `${plural(expected, 'experiment')} ${expected === 1 ? 'states' : 'state'} an expected outcome, worked out from the server's own source; ` +
    `${count(matched)} matched it${differ > 0 ? `, ${count(differ)} ${differ === 1 ? 'differs' : 'differ'}` : ''}.`
  );
}

/** The outcome counts: "30 retry-safe, 4 reissue-refused, 6 repeated-effect" (zeros left out). */
export function outcomeCounts(table: BehaviourTable): string {
  const parts = (Object.keys(PROBE_OUTCOMES) as ProbeOutcome[])
    .filter((o) => (table.summary.outcomes[o] ?? 0) > 0)
    .map((o) => `${count(table.summary.outcomes[o] ?? 0)} ${o}`);
  return parts.join(', ') || 'no experiment';
}

/** `true/false/—`: readOnlyHint, destructiveHint, idempotentHint as declared (— absent). */
export const HINTS_HEAD = 'readOnly/destructive/idempotent';
export function hintsCell(d: DeclaredHints): string {
  const one = (v: boolean | null) => (v === null ? '—' : String(v));
  return `${one(d.readOnlyHint)}/${one(d.destructiveHint)}/${one(d.idempotentHint)}`;
}

export const toolCell = (r: BehaviourRow): string => (r.case === undefined ? r.tool : `${r.tool} case ${r.case}`);
export const verdictCell = (r: BehaviourRow): string => `${VERDICT[r.verdict].mark} ${VERDICT[r.verdict].label}`;
export const outcomeCell = (o: ProbeOutcome): string => `${PROBE_OUTCOMES[o].mark} ${o}`;
export const agreementCell = (a: Agreement): string => `${AGREEMENTS[a].mark} ${a}`;

/** The expected outcome, and whether the observed one differs from it (absent: not stated). */
export function expectedCell(r: BehaviourRow): { text: string; differs: boolean } {
  if (r.expected === undefined) return { text: '—', differs: false };
  return { text: r.expected, differs: r.expected !== r.outcome };
}

/** Only a plain relative path, else no link: the table is saved input, and a URL from it is never trusted. */
export function reportHref(report: string | undefined): string | undefined {
  if (report === undefined || report.length > 200) return undefined;
  const segments = report.split('/');
  return segments.every((p) => /^[\w.-]+$/.test(p) && p !== '.' && p !== '..') ? report : undefined;
}

/** The whole figures, `1,234` (never NaN from a hand-edited file). */
export const figure = (n: number | undefined): string =>
  n === undefined || !Number.isFinite(n) ? '—' : n.toLocaleString('en-US');

/** `1.2 s`, `340 ms`. */
export function took(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Backtick spans are code (each reporter renders them). */
export function methodPoints(table: BehaviourTable): string[] {
  // The table's own values lose their backticks: one in the library's path would shift every code span after it.
  const clean = (v: string) => v.replace(/`/g, "'");
  const m = {
    library: clean(table.method.library),
    network: clean(table.method.network),
    node: clean(table.method.node),
  };
  return [
    `Every plan of the library (\`${m.library}\`) ran through \`idemscan probe --sandbox\` (bubblewrap: a read-only system, an empty HOME, network ${m.network}) with only a fresh scratch directory bound \`--writable\`; the plan's \`setup\` seeded the backend in it. Node ${m.node}.`,
    'The experiment: each planned tool is called, its answer treated as lost, and the same call re-issued with a new JSON-RPC id; an observer tool reads the state before the call, after it and after the re-issue. Its effects are real (in the scratch backend).',
    'The outcome says whether the effect happened again on the re-issue. It cannot tell a deduplication from a true overwrite (neither matters to a retrying client), nor see effects outside what the observer reads.',
    'Not tried: concurrent calls, arguments other than the plan’s, server versions other than the pinned one. The library’s own plans are the only inputs tried.',
    'The expected outcome of each experiment was worked out by reading the server’s own source code (the library file’s `expect`, citing file and function), not from the probe.',
    `The agreement compares the declaration (read-only, a key, \`idempotentHint\`) with the outcome: ${AGREEMENT_ORDER.map((a) => `${a}: ${AGREEMENTS[a].meaning}`).join('; ')}. See docs/PROBE.md, "The behaviour table".`,
  ];
}
