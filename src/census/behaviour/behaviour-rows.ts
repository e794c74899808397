/** Pure, so the table is exactly what the probe reports say; a tool's case counts once. */
import { agreementOf, declaredHints } from './behaviour-agreement.js';
import {
  Agreement,
  BehaviourTable,
  type Method,
  type BehaviourRow,
  type BehaviourServer,
  type BehaviourSummary,
} from './behaviour.js';
import { serverVersion } from '../../model/package-spec.js';
import { probesOf } from '../../model/probe-cases.js';
import { ProbeOutcome } from '../../model/probe-schema.js';
import type { ServerReport } from '../../model/schema.js';
import { unchangedBy } from '../../classify/behaviour.js';
import { expectedOf, type LibraryExpect } from './library-expect.js';

/** One library server as the census ran it: its probe report's server, or why there is none. */
export interface ServerRun {
  /** `auto`: probed without a plan; a plan library server otherwise. */
  method?: Method;
  name: string;
  package: string;
  expect?: LibraryExpect;
  /** The tools the plan probes, in plan order: the rows' order. */
  planned: readonly string[];
  server?: ServerReport;
  /** Install, start, listing or plan: no rows then. */
  error?: string;
  /** Its probe report, relative to the table's directory. */
  report?: string;
}

/** A server's entry and rows; a failed server (or one with `error`) has none. */
export function behaviourOf(run: ServerRun): { server: BehaviourServer; rows: BehaviourRow[] } {
  const s = run.server;
  const error = run.error ?? (!s ? 'not probed' : s.status === 'failed' ? failureText(s) : undefined);
  const version = s ? serverVersion(s).version : undefined;
  const rows = error === undefined && s ? rowsOf(run, s) : [];
  // The whole probe: its set-up calls and every experiment's (observer calls included).
  const setup = error === undefined ? (s?.probeSetup?.requests ?? 0) : 0;
  const server: BehaviourServer = {
    method: run.method ?? 'plan',
    name: run.name,
    package: run.package,
    ...(version === undefined ? {} : { version }),
    toolsListed: s?.tools.length ?? 0,
    experiments: rows.length,
    requests: rows.reduce((n, r) => n + r.requests, setup),
    durationMs: Math.round(s?.durationMs ?? 0),
    ...(error === undefined ? {} : { error }),
    ...(run.report === undefined ? {} : { report: run.report }),
  };
  return { server, rows };
}

const failureText = (s: ServerReport): string =>
  s.failure ? `${s.failure.kind}: ${s.failure.message}` : 'the server could not be scanned';

/** Every experiment the report holds, in the plan's tool order (a tool's cases in case order). */
function rowsOf(run: ServerRun, s: ServerReport): BehaviourRow[] {
  const order = (tool: string) => {
    const i = run.planned.indexOf(tool);
    return i < 0 ? run.planned.length : i;
  };
  const tools = [...s.tools].sort((a, b) => order(a.name) - order(b.name));
  return tools.flatMap((tool) =>
    probesOf(tool)
      .filter((p) => p.outcome !== 'not-probed')
      .map((p): BehaviourRow => {
        const declared = declaredHints(tool.annotations);
        const expected = expectedOf(run.expect, tool.name, p.case)?.outcome;
        const judged = agreementOf(declared, tool.verdict, p.outcome, unchangedBy(p));
        return {
          method: p.method ?? 'plan',
          server: run.name,
          tool: tool.name,
          ...(p.case === undefined ? {} : { case: p.case }),
          declared,
          verdict: tool.verdict,
          key: p.key,
          outcome: p.outcome,
          ...(expected === undefined ? {} : { expected }),
          ...judged,
          reason: p.evidence.reason,
          requests: p.evidence.requests,
          durationMs: Math.round(p.evidence.durationMs),
        };
      }),
  );
}

/** The counts of the rows: every outcome and agreement key present, zeros included. */
function summaryOf(servers: readonly BehaviourServer[], rows: readonly BehaviourRow[]): BehaviourSummary {
  const outcomes = Object.fromEntries(ProbeOutcome.options.map((o) => [o, 0])) as BehaviourSummary['outcomes'];
  const agreements = Object.fromEntries(Agreement.options.map((a) => [a, 0])) as BehaviourSummary['agreements'];
  let expected = 0;
  let matched = 0;
  for (const r of rows) {
    outcomes[r.outcome]++;
    agreements[r.agreement]++;
    if (r.expected !== undefined) {
      expected++;
      if (r.expected === r.outcome) matched++;
    }
  }
  const probed = servers.filter((s) => s.error === undefined).length;
  return { servers: servers.length, probed, experiments: rows.length, outcomes, agreements, expected, matched };
}

export interface TableHead {
  generatedAt: string;
  idemscanVersion: string;
  library: string;
  targets?: string;
  network: string;
  node: string;
}

/** The whole table, its keys in the schema's order (parsed through it, so it is also checked). */
export function behaviourTable(head: TableHead, parts: readonly ReturnType<typeof behaviourOf>[]): BehaviourTable {
  const servers = parts.map((p) => p.server);
  const rows = parts.flatMap((p) => p.rows);
  return BehaviourTable.parse({
    kind: 'idemscan-behaviour',
    schemaVersion: '1',
    generatedAt: head.generatedAt,
    idemscanVersion: head.idemscanVersion,
    method: {
      library: head.library,
      ...(head.targets === undefined ? {} : { targets: head.targets }),
      sandbox: true,
      network: head.network,
      node: head.node,
    },
    summary: summaryOf(servers, rows),
    servers,
    rows,
  });
}
