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

/**
 * Nothing between two looks, then each candidate read twice. What a read's second call changed, or
 * what changed with nothing called, changes whatever is called (a request log, a usage counter).
 */
export async function control(run: AutoSession, candidates: readonly Read[]): Promise<Control> {
  const calls: SentCall[] = [];
  const idle = await settled(run);
  let last = await settled(run);
  const ignored = pathsOf(changesBetween(idle, last));
  const reads: Read[] = [];
  for (const read of candidates) {
    const a = await callTool(run.session, 'control', read.tool, read.arguments, undefined, run.bound);
    const afterA = await settled(run);
    const b = await callTool(run.session, 'control', read.tool, read.arguments, undefined, run.bound);
    last = await settled(run);
    calls.push(a, b);
    for (const p of pathsOf(changesBetween(afterA, last))) ignored.add(p);
    if (a.status === 'ok' && b.status === 'ok' && a.compared === b.compared) reads.push(read);
  }
  return { reads, ignored, calls };
}

/** Looks taken until two in a row agree: a server may finish a write (a temp file, a rename) after it answers. */
const SETTLE_LOOKS = 8;
const SETTLE_MS = 50;

async function settled(run: AutoSession): Promise<Snapshot> {
  let prev = await snapshot(run.roots);
  for (let i = 0; i < SETTLE_LOOKS; i++) {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const next = await snapshot(run.roots);
    if (changesBetween(prev, next).length === 0) return next;
    prev = next;
  }
  return prev;
}

interface Look {
  step: string;
  snap: Snapshot;
  calls: SentCall[];
}

async function look(run: AutoSession, control: Control, step: string): Promise<Look> {
  const calls: SentCall[] = [];
  for (const r of control.reads)
    calls.push(await callTool(run.session, step.replace('observe', 'read'), r.tool, r.arguments, undefined, run.bound));
  return { step, snap: await settled(run), calls };
}

const isIgnored = (p: string, ignored: ReadonlySet<string>) =>
  ignored.has(p) || [...ignored].some((i) => p.startsWith(`${i}/`));

function digestOf(l: Look, ignored: ReadonlySet<string>): string {
  const files = [...l.snap.files].filter(([p]) => !isIgnored(p, ignored)).sort(([a], [b]) => (a < b ? -1 : 1));
  const answers = l.calls.map((c) => (c.status === 'no-answer' ? 'no-answer' : (c.compared ?? '')));
  return createHash('sha256').update(JSON.stringify({ files, answers })).digest('hex');
}

/** The observer's step as judge() reads it: always answered, compared by the digest. */
function observed(l: Look, since: Look | undefined, ignored: ReadonlySet<string>): SentCall {
  const changes = since ? changesBetween(since.snap, l.snap, ignored) : [];
  const answer = since ? `${changes.length} file change${changes.length === 1 ? '' : 's'}` : 'the state before';
  return { step: l.step, tool: AUTO_OBSERVER, ms: 0, status: 'ok', answer, compared: digestOf(l, ignored) };
}

/**
 * The call, then its re-issue with the same arguments, each followed by a look; then the control
 * again (a log may be flushed late), and the looks compared without what changed on its own.
 */
export async function exercise(
  run: AutoSession,
  ctl: Control,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ ran: RanExperiment; changes: FileChanges }> {
  const started = performance.now();
  const sent: (SentCall | Look)[] = [];
  const looks: Look[] = [];
  const at = async (step: string) => {
    const l = await look(run, ctl, step);
    sent.push(...l.calls, l);
    looks.push(l);
  };
  await at('observe-before');
  const call = await callTool(run.session, 'call', tool, args, undefined, run.bound);
  sent.push(call);
  if (call.status === 'ok') {
    await at('observe-after-call');
    const reissue = await callTool(run.session, 'reissue', tool, args, undefined, run.bound);
    sent.push(reissue);
    if (reissue.status !== 'no-answer') await at('observe-after-reissue');
  }
  const after = looks.length > 1 ? await control(run, ctl.reads) : undefined;
  const ignored = new Set([...ctl.ignored, ...(after?.ignored ?? [])]);
  const calls = sent.map((c) => ('snap' in c ? observed(c, looks[looks.indexOf(c) - 1], ignored) : c));
  const all = [...ctl.calls, ...calls, ...(after?.calls ?? [])];
  return {
    ran: { calls: all, durationMs: Math.round(performance.now() - started) },
    changes: changesOf(looks, ignored),
  };
}

function changesOf(looks: readonly Look[], ignored: ReadonlySet<string>): FileChanges {
  const [before, afterCall, afterReissue] = looks;
  const between = (a?: Look, b?: Look) => (a && b ? described(changesBetween(a.snap, b.snap, ignored)) : []);
  const truncated = looks.map((l) => l.snap.truncated).find((t) => t !== undefined);
  return {
    call: between(before, afterCall),
    reissue: between(afterCall, afterReissue),
    ignored: [...ignored].sort().slice(0, SHOWN_CHANGES),
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
