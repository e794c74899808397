/** One view model so terminal, Markdown and SARIF say the same; server text escaped. */
import { LIMITS } from '../model/limits.js';
import { createHash } from 'node:crypto';
import type { Result, ReportingDescriptor } from 'sarif';
import { mdText } from './markdown-text.js';
import { experimentName, probesOf } from '../model/probe-cases.js';
import { observerCalls, PROBE_CONFLICTS, PROBE_OUTCOMES } from '../model/probe-outcomes.js';
import type { ProbeOutcome, ToolProbe } from '../model/probe-schema.js';
import type { Report } from '../model/schema.js';
import { msg, rendered, show } from './message.js';
import { noCommandLines, safeLines } from './terminal.js';
import { plural } from '../model/verdicts.js';
import { wrapBounded, wrapTo } from './width.js';

export interface ProbeRow {
  server: string;
  /** The experiment's name: the tool's, with its case when the plan lists cases (`write_query case 2`). */
  tool: string;
  /** The tool's own name (SARIF's logical location). */
  toolName: string;
  probe: ToolProbe;
}

/** In plan order (the order the tools ran), not listing order; not-probed tools are only counted. */
export function probeRows(report: Report): ProbeRow[] {
  const planned = new Map((report.options.probe?.tools ?? []).map((name, i) => [name, i]));
  const rank = (name: string) => planned.get(name) ?? planned.size;
  return report.servers.flatMap((s) =>
    // A stable sort: a tool the plan does not name (a report from elsewhere) keeps its place among the rest.
    [...s.tools]
      .sort((a, b) => rank(a.name) - rank(b.name))
      .flatMap((t) =>
        probesOf(t)
          .filter((p) => p.outcome !== 'not-probed')
          .map((p) => ({ server: s.name, tool: experimentName(t.name, p), toolName: t.name, probe: p })),
      ),
  );
}

/** `3 retry-safe, 1 repeated-effect, 5 not-probed; 1 observer (12 calls)`. */
export function probeSummaryText(report: Report): string | undefined {
  const s = report.summary.probe;
  if (!s) return undefined;
  const parts = (Object.keys(PROBE_OUTCOMES) as ProbeOutcome[])
    .filter((o) => (s[PROBE_OUTCOMES[o].field] ?? 0) > 0)
    .map((o) => `${s[PROBE_OUTCOMES[o].field]} ${o}`);
  const observers = s.observers ? `; ${plural(s.observers, 'observer')} (${plural(s.observerCalls ?? 0, 'call')})` : '';
  return (parts.join(', ') || 'nothing probed') + observers;
}

const cost = (p: ToolProbe) => `${plural(p.evidence.requests, 'request')}, ${p.evidence.durationMs} ms`;

/** Wrapped lines a reason may take in all: a server's long error must not flood the terminal. */
const REASON_LINES = 12;

/** The reason, a line each of its own lines (a server's multi-line error), escaped, each wrapped under the row. */
function reasonLines(reason: string, width: number): string[] {
  const lines = safeLines(reason, LIMITS.shown.reason).flatMap((l) =>
    wrapBounded(msg`${rendered(l)}`.text, width, '      ', '        '),
  );
  if (lines.length <= REASON_LINES) return lines;
  return [...lines.slice(0, REASON_LINES - 1), `      (${lines.length - REASON_LINES + 1} more lines)`];
}

function rowLines({ tool, probe: p }: ProbeRow, width: number): string[] {
  const key = p.key === null ? 'no key' : msg`key ${show.name(p.key)}`;
  const conflict = p.conflict ? `; conflict ${p.conflict}` : '';
  const head = msg`${PROBE_OUTCOMES[p.outcome].mark} ${show.name(tool)}: ${p.outcome} (${key}${conflict}; ${cost(p)})`;
  return [
    ...wrapBounded(head.text, width, '  ', '      '),
    ...reasonLines(p.evidence.reason, width),
    ...(p.conflict
      ? wrapTo(`conflict ${p.conflict}: ${PROBE_CONFLICTS[p.conflict]}`, width, '      ', '        ')
      : []),
  ];
}

/** The tools called only as observers, with their calls: real calls too, so counted. */
function observerLines(report: Report, width: number): string[] {
  return report.servers.flatMap((s) =>
    [...observerCalls(s.tools)]
      .filter(([name]) => s.tools.some((t) => t.name === name && t.probe?.outcome === 'not-probed'))
      .flatMap(([name, n]) =>
        wrapBounded(msg`· ${show.name(name)}: observer, called ${plural(n, 'time')}`.text, width, '  ', '      '),
      ),
  );
}

/** Lines within `width` (a terminal's; Infinity on a pipe), continuations indented under their row. */
export function probeTerminalLines(report: Report, width = Infinity): string[] {
  const rows = probeRows(report);
  if (rows.length === 0 && !report.summary.probe) return [];
  const lines = [
    '',
    ...wrapTo(`Probe: ${probeSummaryText(report)}`, width, '', '  '),
    ...rows.flatMap((r) => rowLines(r, width)),
    ...observerLines(report, width),
  ];
  // A continuation line of a server's error may start with `::` once the runner trims its indent.
  return lines.map((l) => noCommandLines(l) + '\n');
}

export function probeMarkdown(report: Report): string[] {
  if (!report.summary.probe) return [];
  const rows = probeRows(report);
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    '## Probe (lost-response experiment)',
    '',
    `${mdText(probeSummaryText(report) ?? '')}. Each planned tool was called, its answer treated as lost, and the same call re-issued with the same key (docs/PROBE.md).`,
    '',
    row(['tool', 'outcome', 'key', 'conflict', 'requests', 'ms', 'why']),
    row(['---', '---', '---', '---', '--:', '--:', '---']),
    ...rows.map(({ tool, probe: p }) =>
      row([
        mdText(tool, LIMITS.shown.name),
        `${PROBE_OUTCOMES[p.outcome].mark} ${p.outcome}`,
        p.key === null ? '-' : mdText(p.key, LIMITS.shown.key),
        p.conflict ? `${p.conflict}: ${PROBE_CONFLICTS[p.conflict]}` : '-',
        p.evidence.requests,
        p.evidence.durationMs,
        mdText(p.evidence.reason, LIMITS.quotedChars),
      ]),
    ),
  ];
}

/** SARIF: a rule per outcome worth an alert; retry-safe and not-probed make no result. */
const SARIF_OUTCOMES = {
  'repeated-effect': { level: 'error', title: 'A re-issued call repeated its effect (the lost-response experiment)' },
  failed: { level: 'warning', title: 'A call of the lost-response experiment failed' },
  inconclusive: { level: 'note', title: 'The lost-response experiment could not tell' },
  // Last, so the rules before it keep their indexes.
  'reissue-refused': {
    level: 'warning',
    title: 'A re-issued call was refused after its effect happened: the client is told a done call failed',
  },
} as const satisfies Partial<Record<ProbeOutcome, { level: Result.level; title: string }>>;

const ruleId = (o: keyof typeof SARIF_OUTCOMES) => `probe-${o}`;

export function probeSarifRules(report: Report): ReportingDescriptor[] {
  if (!report.summary.probe) return [];
  return (Object.keys(SARIF_OUTCOMES) as (keyof typeof SARIF_OUTCOMES)[]).map((o) => ({
    id: ruleId(o),
    name: ruleId(o).replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
    shortDescription: { text: SARIF_OUTCOMES[o].title },
    help: { text: `${SARIF_OUTCOMES[o].title}: ${PROBE_OUTCOMES[o].meaning}. See docs/PROBE.md.` },
    defaultConfiguration: { level: SARIF_OUTCOMES[o].level },
  }));
}

/** `locate`: the physical location the SARIF reporter gives every result of this server. */
export function probeSarifResults(
  report: Report,
  locate: (server: string) => NonNullable<Result['locations']>[number]['physicalLocation'],
  firstIndex: number,
): Result[] {
  const ids = Object.keys(SARIF_OUTCOMES) as (keyof typeof SARIF_OUTCOMES)[];
  return probeRows(report).flatMap(({ server, tool, toolName, probe: p }) => {
    const at = ids.indexOf(p.outcome as keyof typeof SARIF_OUTCOMES);
    if (at < 0) return [];
    const o = ids[at]!;
    return [
      {
        ruleId: ruleId(o),
        ruleIndex: firstIndex + at,
        level: SARIF_OUTCOMES[o].level,
        // The case is the experiment's, said here and in the properties; the location is the tool.
        message: { text: `${server}/${tool}: ${p.outcome}: ${p.evidence.reason}` },
        locations: [
          {
            physicalLocation: locate(server),
            logicalLocations: [{ name: toolName, fullyQualifiedName: `${server}/${toolName}`, kind: 'function' }],
          },
        ],
        // One result per experiment: the case stays in the fingerprint, as before.
        partialFingerprints: {
          'idemscanFinding/v1': createHash('sha256')
            .update(JSON.stringify([server, tool, ruleId(o)]))
            .digest('hex')
            .slice(0, 32),
        },
        properties: {
          server,
          tool: toolName,
          ...(p.case === undefined ? {} : { case: p.case, experiment: tool }),
          outcome: p.outcome,
          key: p.key,
          ...(p.conflict ? { conflict: p.conflict } : {}),
          requests: p.evidence.requests,
          durationMs: p.evidence.durationMs,
        },
      },
    ];
  });
}
