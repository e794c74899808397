/** Words made once so both reporters say the same; plain text, each reporter escapes it. */
import type { Agreement, BehaviourRow, BehaviourTable, DeclaredHints, Method } from './behaviour.js';
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
    ...(table.method.targets === undefined ? [] : [autoPoint(clean(table.method.targets))]),
  ];
}

/** The rows made without a plan: what they observe, and what they cannot. */
const autoPoint = (targets: string) =>
  `Rows of method \`auto\`: every tool of each stdio server of \`${targets}\` ran through \`idemscan probe --auto --sandbox\`, each on a fresh server with a fresh scratch HOME, TMPDIR and working folder, with arguments made from its schema; the outcome is read from the files the server could write and its harmless reads. An effect on a remote service is not seen (the sandbox has no network, so such calls mostly fail), nor state a server keeps only in memory. See docs/METHODOLOGY.md, "Behaviour".`;

/** One method's figures: how many servers and tools, what was observed, and how the hints fared. */
export interface MethodFigures {
  method: Method;
  servers: number;
  exercised: number;
  observed: number;
  outcomes: Partial<Record<ProbeOutcome, number>>;
  agreements: Partial<Record<Agreement, number>>;
  /** Servers with tools whose hints overstate, most first: `[server, tools]`. */
  overstating: [string, number][];
}

const OBSERVED_OUTCOMES: readonly ProbeOutcome[] = ['retry-safe', 'repeated-effect', 'reissue-refused'];

/** The rows by how they were made; a table from before `method` existed is all plan rows. */
export function methodFigures(table: BehaviourTable): MethodFigures[] {
  const byMethod = new Map<Method, BehaviourRow[]>();
  for (const r of table.rows) byMethod.set(r.method ?? 'plan', [...(byMethod.get(r.method ?? 'plan') ?? []), r]);
  return [...byMethod].map(([method, rows]) => {
    const outcomes: Partial<Record<ProbeOutcome, number>> = {};
    const agreements: Partial<Record<Agreement, number>> = {};
    const over = new Map<string, number>();
    for (const r of rows) {
      outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
      agreements[r.agreement] = (agreements[r.agreement] ?? 0) + 1;
      if (r.agreement === 'overstates') over.set(r.server, (over.get(r.server) ?? 0) + 1);
    }
    const servers = table.servers.filter((s) => (s.method ?? 'plan') === method && s.error === undefined).length;
    const observed = OBSERVED_OUTCOMES.reduce((n, o) => n + (outcomes[o] ?? 0), 0);
    const overstating = [...over].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return { method, servers, exercised: rows.length, observed, outcomes, agreements, overstating };
  });
}

/** `auto: 310 servers, 4,210 tools exercised, 1,020 observed (610 retry-safe, ...); of them 71% agree, ...`. */
export function methodSentence(f: MethodFigures): string {
  const o = OBSERVED_OUTCOMES.map((k) => `${count(f.outcomes[k] ?? 0)} ${k}`).join(', ');
  const judged = (f.agreements.agrees ?? 0) + (f.agreements.understates ?? 0) + (f.agreements.overstates ?? 0);
  const share = (a: Agreement) => (judged ? `${Math.round((100 * (f.agreements[a] ?? 0)) / judged)}%` : '—');
  return (
    `${f.method === 'auto' ? 'Without a plan (--auto)' : 'By plan'}: ${plural(f.servers, 'server')}, ${plural(f.exercised, 'tool experiment')}, ` +
    `${count(f.observed)} with an observed outcome (${o}); of the ${count(judged)} judged, ${share('agrees')} agree, ` +
    `${share('understates')} understate, ${share('overstates')} overstate`
  );
}
