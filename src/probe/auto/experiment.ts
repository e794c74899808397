/**
 * One `--auto` experiment on a fresh server: a control learns what changes whatever is called and
 * which reads hold still, then the call and its re-issue are looked at through files and reads.
 */
import { createHash } from 'node:crypto';
import type { Session } from '../../connect/session.js';
import { AUTO_OBSERVER } from '../../model/probe-cases.js';
import type { FileChanges, RanExperiment, SentCall } from '../../model/probe-schema.js';
import { callTool, type Bound } from '../run.js';
import { changesBetween, snapshot, within, type Change, type Snapshot } from './snapshot.js';

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
  /** When the server's budget runs out (`performance.now()`): past it a look no longer waits to settle. */
  ends?: number;
}

interface Control {
  /** The reads whose answer and files held still: the experiment's observers. */
  reads: Read[];
  /** Paths that changed with nothing called, or on every read's call: left out of every comparison. */
  ignored: Set<string>;
  calls: SentCall[];
}

const pathsOf = (changes: readonly Change[]) => new Set(changes.map((c) => c.path));

/**
 * Before the call: two looks with nothing between, then two rounds of the reads, a look after each
 * call. What changed with nothing called, or on a read's second call, changes whatever is called (a
 * request log, a usage counter). A read is an observer only if its two answers agree and its calls
 * added no file (a log per request would show as a change at every look).
 */
async function control(run: AutoSession, candidates: readonly Read[]): Promise<Control> {
  const calls: SentCall[] = [];
  let last = await settled(run);
  const next = await settled(run);
  const ignored = pathsOf(changesBetween(last, next));
  last = next;
  const seen = candidates.map(() => ({ answers: [] as SentCall[], added: false }));
  for (const round of [1, 2])
    for (const [i, read] of candidates.entries()) {
      const answer = await callTool(run.session, 'control', read.tool, read.arguments, undefined, run.bound);
      const after = await settled(run);
      const changes = changesBetween(last, after, ignored);
      if (round === 2) for (const c of changes) ignored.add(c.path);
      seen[i]!.answers.push(answer);
      seen[i]!.added ||= changes.some((c) => c.change === 'added');
      calls.push(answer);
      last = after;
    }
  const observer = ({ answers: [a, b], added }: (typeof seen)[number]) =>
    !added &&
    a?.status === 'ok' &&
    b?.status === 'ok' &&
    withoutTimes(a.compared ?? '') === withoutTimes(b.compared ?? '');
  return { reads: candidates.filter((_, i) => observer(seen[i]!)), ignored, calls };
}

/** Looks taken until two in a row agree: a server may finish a write (a temp file, a rename) after it answers. */
const SETTLE_LOOKS = 8;
const SETTLE_MS = 50;

async function settled(run: AutoSession): Promise<Snapshot> {
  let prev = await snapshot(run.roots);
  for (let i = 0; i < SETTLE_LOOKS && !(run.ends !== undefined && performance.now() > run.ends); i++) {
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

async function look(run: AutoSession, reads: readonly Read[], step: string): Promise<Look> {
  const calls: SentCall[] = [];
  for (const r of reads)
    calls.push(await callTool(run.session, step.replace('observe', 'read'), r.tool, r.arguments, undefined, run.bound));
  return { step, snap: await settled(run), calls };
}

/** A tool's logs and caches (npm's debug log per run, `*.log`, `.cache/`) are never the effect a retry repeats. */
const BOOKKEEPING = [/(?:^|\/)\.npm\//, /(?:^|\/)_?logs\//, /\.log$/, /(?:^|\/)\.cache\//];
const bookkeeping = (p: string) => BOOKKEEPING.some((re) => re.test(p));

const isIgnored = (p: string, ignored: ReadonlySet<string>) => within(p, ignored) || bookkeeping(p);

/** The changes between two looks that count: not what changes on its own, not bookkeeping. */
const counted = (a: Snapshot, b: Snapshot, ignored: ReadonlySet<string>) =>
  changesBetween(a, b, ignored).filter((c) => !bookkeeping(c.path));

/** An ISO 8601 time in an answer (a file's atime, a "checked at"): no change of state, as a file's timestamps are not. */
const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const withoutTimes = (answer: string) => answer.replace(TIMESTAMP, '<time>');

/** Only the answers of the reads the control found steady count. */
function digestOf(l: Look, steady: ReadonlySet<string>, ignored: ReadonlySet<string>): string {
  const files = [...l.snap.files].filter(([p]) => !isIgnored(p, ignored)).sort(([a], [b]) => (a < b ? -1 : 1));
  const answers = l.calls
    .filter((c) => steady.has(c.tool))
    .map((c) => (c.status === 'no-answer' ? 'no-answer' : withoutTimes(c.compared ?? '')));
  return createHash('sha256').update(JSON.stringify({ files, answers })).digest('hex');
}

/** The observer's step as judge() reads it: always answered, compared by the digest. */
function observed(l: Look, since: Look | undefined, ctl: Control): SentCall {
  const changes = since ? counted(since.snap, l.snap, ctl.ignored) : [];
  const answer = since ? `${changes.length} file change${changes.length === 1 ? '' : 's'}` : 'the state before';
  const steady = new Set(ctl.reads.map((r) => r.tool));
  return { step: l.step, tool: AUTO_OBSERVER, ms: 0, status: 'ok', answer, compared: digestOf(l, steady, ctl.ignored) };
}

/**
 * The control, then the call and its re-issue with the same arguments, each followed by a look (the
 * observer reads, then the files); the looks are compared without what changes on its own.
 */
export async function exercise(
  run: AutoSession,
  candidates: readonly Read[],
  tool: string,
  args: Record<string, unknown>,
): Promise<{ ran: RanExperiment; changes: FileChanges; reads: Read[] }> {
  const started = performance.now();
  const learned = await control(run, candidates);
  const sent: (SentCall | Look)[] = [...learned.calls];
  const looks: Look[] = [];
  const at = async (step: string) => {
    const l = await look(run, learned.reads, step);
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
  // A read that failed at a look says nothing of the state: its answers are left out.
  const answered = (r: Read) => looks.every((l) => l.calls.find((c) => c.tool === r.tool)?.status === 'ok');
  const ignored = new Set([...learned.ignored, ...unrelated(looks, learned.ignored)]);
  const ctl = { ...learned, reads: learned.reads.filter(answered), ignored };
  const calls = sent.map((c) => ('snap' in c ? observed(c, looks[looks.indexOf(c) - 1], ctl) : c));
  const ran = { calls, durationMs: Math.round(performance.now() - started) };
  return { ran, changes: changesOf(looks, ignored), reads: ctl.reads };
}

/**
 * Re-issue changes that touch nothing the call touched (not its paths, not the folders it added
 * to): a log flushed late, not the effect again.
 */
function unrelated(looks: readonly Look[], ignored: ReadonlySet<string>): string[] {
  const [before, afterCall, afterReissue] = looks;
  if (!before || !afterCall || !afterReissue) return [];
  const byCall = counted(before.snap, afterCall.snap, ignored);
  const paths = new Set(byCall.map((c) => c.path));
  const folders = new Set(
    byCall.filter((c) => c.change === 'added').map((c) => c.path.slice(0, c.path.lastIndexOf('/'))),
  );
  const related = (p: string) => within(p, paths) || folders.has(p.slice(0, p.lastIndexOf('/')));
  return counted(afterCall.snap, afterReissue.snap, ignored)
    .map((c) => c.path)
    .filter((p) => !related(p));
}

function changesOf(looks: readonly Look[], ignored: ReadonlySet<string>): FileChanges {
  const [before, afterCall, afterReissue] = looks;
  const between = (a?: Look, b?: Look) => (a && b ? described(counted(a.snap, b.snap, ignored)) : []);
  const truncated = looks.map((l) => l.snap.truncated).find((t) => t !== undefined);
  return {
    call: between(before, afterCall),
    reissue: between(afterCall, afterReissue),
    ignored: shownPaths([...ignored].sort()),
    ...(truncated ? { truncated } : {}),
  };
}

function shownPaths(paths: readonly string[]): string[] {
  const more = paths.length - SHOWN_CHANGES;
  return more > 0 ? [...paths.slice(0, SHOWN_CHANGES), `and ${more} more`] : [...paths];
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
