/** `idemscan diff`: each change is `worse` (what `--fail-on regression` fails on), `better` or `neutral`. */
import { changedFields, descriptionDiff } from './definition.js';
import {
  DIFF_VERSION,
  type Change,
  type DiffDocument,
  type DiffSide,
  type Direction,
  type KeyRef,
} from '../model/diff.js';
import type { Verdict } from '../model/schema-base.js';
import type { KeyArgument, Report, ServerReport, ToolReport } from '../model/schema.js';
import { effectiveHint, HINT_NAMES, HINTS, hintText, verdictRank, type HintName } from '../model/verdicts.js';

export interface DiffInput {
  report: Report;
  file?: string;
}

export function diffReports(oldInput: DiffInput | Report, newInput: DiffInput | Report): DiffDocument {
  const a = 'report' in oldInput ? oldInput : { report: oldInput };
  const b = 'report' in newInput ? newInput : { report: newInput };
  const before = byName(a.report.servers);
  const after = byName(b.report.servers);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort(compareText);

  const changes: Change[] = [];
  for (const name of names) {
    const o = before.get(name);
    const n = after.get(name);
    if (!o)
      changes.push({
        kind: 'server-added',
        server: name,
        direction: 'neutral',
        status: n!.status,
        tools: n!.tools.length,
      });
    else if (!n)
      changes.push({
        kind: 'server-removed',
        server: name,
        direction: 'neutral',
        status: o.status,
        tools: o.tools.length,
      });
    else changes.push(...diffServer(o, n));
  }

  const counts = { worse: 0, better: 0, neutral: 0 };
  for (const c of changes) counts[c.direction]++;
  return {
    diffVersion: DIFF_VERSION,
    old: side(a),
    new: side(b),
    regression: counts.worse > 0,
    counts,
    changes,
  };
}

/** Changes of one server present in both reports. Tools are compared only when both scans succeeded. */
function diffServer(o: ServerReport, n: ServerReport): Change[] {
  const server = o.name;
  if (o.status !== n.status) {
    const failed = o.status === 'failed' ? o : n;
    const failure = failed.failure ? `${failed.failure.kind}: ${failed.failure.message}` : undefined;
    // A server that stopped answering hides every tool it had: worse. One that came back: better.
    return [
      {
        kind: 'status-changed',
        server,
        direction: n.status === 'failed' ? 'worse' : 'better',
        from: o.status,
        to: n.status,
        failure,
      },
    ];
  }
  if (o.status === 'failed') return []; // nothing to compare: neither scan saw any tool

  const changes: Change[] = [];
  if (o.idempotencyCapability !== n.idempotencyCapability) {
    changes.push({
      kind: 'capability-changed',
      server,
      direction: n.idempotencyCapability ? 'better' : 'worse',
      capability: 'tools.idempotency',
      from: o.idempotencyCapability,
      to: n.idempotencyCapability,
    });
  }
  // Servers may list one name twice (duplicate-tool-name): the tools of a name pair by position.
  const before = groupByName(o.tools);
  const after = groupByName(n.tools);
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort(compareText)) {
    const olds = before.get(name) ?? [];
    const news = after.get(name) ?? [];
    const count = Math.max(olds.length, news.length);
    for (let i = 0; i < count; i++) {
      const subject: ToolSubject = { server, tool: name, ...(count > 1 ? { occurrence: i + 1 } : {}) };
      const ot = olds[i];
      const nt = news[i];
      if (!ot) changes.push({ kind: 'tool-added', ...subject, direction: 'neutral', verdict: nt!.verdict });
      else if (!nt) changes.push({ kind: 'tool-removed', ...subject, direction: 'neutral', verdict: ot.verdict });
      else changes.push(...diffTool(subject, ot, nt));
    }
  }
  return changes;
}

/** Which tool a change is about: its server, its name, and which of several tools of that name. */
interface ToolSubject {
  server: string;
  tool: string;
  occurrence?: number;
}

function diffTool(subject: ToolSubject, o: ToolReport, n: ToolReport): Change[] {
  const changes: Change[] = [];
  if (o.verdict !== n.verdict) {
    changes.push({
      kind: 'verdict-changed',
      ...subject,
      direction: compareVerdicts(o.verdict, n.verdict),
      from: o.verdict,
      to: n.verdict,
    });
  }
  for (const hint of HINT_NAMES) {
    const from = hintText(o.annotations, hint);
    const to = hintText(n.annotations, hint);
    if (from === to) continue;
    changes.push({
      kind: 'annotation-changed',
      ...subject,
      direction: hintDirection(hint, o.annotations, n.annotations),
      hint,
      from,
      to,
    });
  }
  if (o.definitionHash !== undefined && n.definitionHash !== undefined) {
    const fields = changedFields(o, n, true);
    if (fields) {
      const lines = fields.includes('description') ? descriptionDiff(o.description, n.description) : undefined;
      changes.push({
        kind: 'definition-changed',
        ...subject,
        direction: 'neutral',
        fields,
        ...(lines ? { descriptionDiff: lines } : {}),
      });
    }
  }
  const keysBefore = byPath(o.keyArguments);
  const keysAfter = byPath(n.keyArguments);
  for (const p of [...new Set([...keysBefore.keys(), ...keysAfter.keys()])].sort(compareText)) {
    const ok = keysBefore.get(p);
    const nk = keysAfter.get(p);
    if (!ok) changes.push({ kind: 'key-argument-added', ...subject, direction: 'better', key: keyRef(nk!) });
    else if (!nk) changes.push({ kind: 'key-argument-removed', ...subject, direction: 'worse', key: keyRef(ok) });
    else if (ok.confidence !== nk.confidence) {
      changes.push({
        kind: 'key-argument-changed',
        ...subject,
        direction: nk.confidence === 'strong' ? 'better' : 'worse',
        path: p,
        from: ok.confidence,
        to: nk.confidence,
      });
    }
  }
  return changes;
}

/** `worse` when `to` is less safe than `from` in the verdict order (model/verdicts.ts). */
export function compareVerdicts(from: Verdict, to: Verdict): Direction {
  const d = verdictRank(to) - verdictRank(from);
  return d > 0 ? 'worse' : d < 0 ? 'better' : 'neutral';
}

/** By what a client may assume (non-boolean = absent = spec default): losing the safe value is worse. */
export function hintDirection(
  hint: HintName,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): Direction {
  const safe = HINTS[hint].safe; // the value that makes a retry safer: moving away from it is worse
  const wasSafe = effectiveHint(hint, before) === safe;
  const isSafe = effectiveHint(hint, after) === safe;
  return wasSafe === isSafe ? 'neutral' : isSafe ? 'better' : 'worse';
}

function keyRef(k: KeyArgument): KeyRef {
  return { name: k.name, path: k.path, confidence: k.confidence };
}

function side(input: DiffInput): DiffSide {
  const { report, file } = input;
  return {
    ...(file === undefined ? {} : { file }),
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    summary: report.summary,
  };
}

/** Servers by name; first occurrence wins (target loading keeps server names unique). */
function byName<T extends { name: string }>(items: readonly T[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const x of items) if (!m.has(x.name)) m.set(x.name, x);
  return m;
}

/** Tools (of a report or a lock file) by name, each name's tools in their order. */
export function groupByName<T extends { name: string }>(tools: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of tools) {
    const list = m.get(t.name);
    if (list) list.push(t);
    else m.set(t.name, [t]);
  }
  return m;
}

/** The strongest key argument per path. */
function byPath(keys: readonly KeyArgument[]): Map<string, KeyArgument> {
  const m = new Map<string, KeyArgument>();
  for (const k of keys) {
    const had = m.get(k.path);
    if (!had || (had.confidence === 'weak' && k.confidence === 'strong')) m.set(k.path, k);
  }
  return m;
}

/** Code-unit order: the same on every machine and locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
