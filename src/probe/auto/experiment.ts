/**
 * One `--auto` experiment on a fresh server: a control learns what changes whatever is called, then
 * the call and its re-issue are looked at through the sandbox's files and the harmless reads.
 */
import { createHash } from 'node:crypto';
import type { Session } from '../../connect/session.js';
import { AUTO_OBSERVER } from '../../model/probe-cases.js';
import type { FileChanges, RanExperiment, SentCall } from '../../model/probe-schema.js';
import { callTool, type Bound } from '../run.js';
import { changesBetween, snapshot, type Change, type Snapshot } from './snapshot.js';

/** Changes named per step in the evidence; the rest are counted. */
const SHOWN_CHANGES = 20;

export interface Read {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface AutoSession {
  session: Session;
  roots: readonly { label: string; dir: string }[];
  bound: Bound;
}

export interface Control {
  /** The reads whose answer and files held still: the experiment's observers. */
  reads: Read[];
  /** Paths that changed with nothing called, or on every read's call: left out of every comparison. */
  ignored: Set<string>;
  calls: SentCall[];
}

const pathsOf = (changes: readonly Change[]) => new Set(changes.map((c) => c.path));

/** Nothing between two looks, then each candidate read twice; a read whose second call changed anything is dropped. */
export async function control(run: AutoSession, candidates: readonly Read[]): Promise<Control> {
  const calls: SentCall[] = [];
  const idle = await snapshot(run.roots);
  let last = await snapshot(run.roots);
  const ignored = pathsOf(changesBetween(idle, last));
  const seen: { read: Read; stable: boolean; first: Set<string>; second: Set<string> }[] = [];
  for (const read of candidates) {
    const a = await callTool(run.session, 'control', read.tool, read.arguments, undefined, run.bound);
    const afterA = await snapshot(run.roots);
    const b = await callTool(run.session, 'control', read.tool, read.arguments, undefined, run.bound);
    const afterB = await snapshot(run.roots);
    calls.push(a, b);
    const stable = a.status === 'ok' && b.status === 'ok' && a.compared === b.compared;
    seen.push({
      read,
      stable,
      first: pathsOf(changesBetween(last, afterA)),
      second: pathsOf(changesBetween(afterA, afterB)),
    });
    last = afterB;
  }
  // What every read call changed (a server's own request log) changes whatever is called.
  const sets = seen.flatMap((s) => [s.first, s.second]);
  for (const p of sets[0] ?? []) if (sets.every((s) => s.has(p))) ignored.add(p);
  const reads = seen.filter((s) => s.stable && [...s.second].every((p) => ignored.has(p))).map((s) => s.read);
  return { reads, ignored, calls };
}

interface Look {
  snap: Snapshot;
  calls: SentCall[];
  digest: string;
}

async function look(run: AutoSession, control: Control, step: string): Promise<Look> {
  const calls: SentCall[] = [];
  for (const r of control.reads)
    calls.push(await callTool(run.session, step.replace('observe', 'read'), r.tool, r.arguments, undefined, run.bound));
  const snap = await snapshot(run.roots);
  const files = [...snap.files].filter(([p]) => !isIgnored(p, control.ignored)).sort(([a], [b]) => (a < b ? -1 : 1));
  const answers = calls.map((c) => (c.status === 'no-answer' ? 'no-answer' : (c.compared ?? '')));
  const digest = createHash('sha256').update(JSON.stringify({ files, answers })).digest('hex');
  return { snap, calls, digest };
}

const isIgnored = (p: string, ignored: ReadonlySet<string>) =>
  ignored.has(p) || [...ignored].some((i) => p.startsWith(`${i}/`));

/** The observer's step as judge() reads it: always answered, compared by the digest. */
function observed(step: string, l: Look, since: Look | undefined, ignored: ReadonlySet<string>): SentCall {
  const changes = since ? changesBetween(since.snap, l.snap, ignored) : [];
  const answer = since ? `${changes.length} file change${changes.length === 1 ? '' : 's'}` : 'the state before';
  return { step, tool: AUTO_OBSERVER, ms: 0, status: 'ok', answer, compared: l.digest };
}

/** The call, then its re-issue with the same arguments, each followed by a look. Never throws. */
export async function exercise(
  run: AutoSession,
  control: Control,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ ran: RanExperiment; changes: FileChanges }> {
  const started = performance.now();
  const calls: SentCall[] = [...control.calls];
  const looks: Look[] = [];
  const at = async (step: string) => {
    const l = await look(run, control, step);
    calls.push(...l.calls, observed(step, l, looks.at(-1), control.ignored));
    looks.push(l);
  };
  await at('observe-before');
  const call = await callTool(run.session, 'call', tool, args, undefined, run.bound);
  calls.push(call);
  if (call.status === 'ok') {
    await at('observe-after-call');
    const reissue = await callTool(run.session, 'reissue', tool, args, undefined, run.bound);
    calls.push(reissue);
    if (reissue.status !== 'no-answer') await at('observe-after-reissue');
  }
  return { ran: { calls, durationMs: Math.round(performance.now() - started) }, changes: changesOf(looks, control) };
}

function changesOf(looks: readonly Look[], control: Control): FileChanges {
  const [before, afterCall, afterReissue] = looks;
  const between = (a?: Look, b?: Look) => (a && b ? described(changesBetween(a.snap, b.snap, control.ignored)) : []);
  const truncated = looks.map((l) => l.snap.truncated).find((t) => t !== undefined);
  return {
    call: between(before, afterCall),
    reissue: between(afterCall, afterReissue),
    ignored: [...control.ignored].sort().slice(0, SHOWN_CHANGES),
    ...(truncated ? { truncated } : {}),
  };
}

function described(changes: readonly Change[]): string[] {
  const lines = changes.slice(0, SHOWN_CHANGES).map((c) => {
    if (c.change === 'added') return `${c.path}: added (${c.after?.size ?? 0} bytes)`;
    if (c.change === 'removed') return `${c.path}: removed`;
    return `${c.path}: changed (${c.before?.size ?? 0} -> ${c.after?.size ?? 0} bytes)`;
  });
  const more = changes.length - lines.length;
  return more > 0 ? [...lines, `and ${more} more`] : lines;
}
