/** Post-processors as folds over the servers; steps are pure, so every pass gives the same report. */
import type { DriftFold } from '../../compare/drift.js';
import type { SuppressOutcome } from '../../compare/suppress.js';
import { bounded } from '../../model/bounds.js';
import {
  foldOver,
  type FoldMaker,
  type ReportHead,
  type ReportStream,
  type ServerFold,
} from '../../model/report-head.js';
import type { Drift, ServerReport } from '../../model/schema.js';
import type { Shown } from '../../model/shown.js';
import type { Suppressions } from '../../model/suppress.js';
import { SummaryTally } from '../../model/summary.js';
import type { Baseline } from './baseline.js';
import { FailOnFold, type FailOn } from './fail-on.js';

export interface PostProcessors {
  /** `audit` without `--name`: each server named by what it calls itself. */
  nameFromServerInfo?: boolean;
  suppress?: Suppressions;
  baseline?: Baseline;
  failOn?: FailOn;
  /** `--sarif-uri`: the server names its warnings check. */
  names?: boolean;
  /** Run in the first pass too, so later readers need not read the servers again. */
  folds?: readonly FoldMaker<unknown>[];
}

export interface Processed {
  stream: ReportStream;
  drift?: Drift;
  suppress?: SuppressOutcome;
  failOn: Shown[];
  sandbox: Map<string, number>;
  names: string[];
}

/** Named by what it calls itself, not by the command that started it (`node`, `npx`); already redacted. */
export function nameFromServerInfo(s: ServerReport): ServerReport {
  const own = s.serverInfo?.name?.trim();
  return own ? { ...s, name: bounded(own, 100) } : s;
}

class Tallies {
  readonly summary = new SummaryTally();
  readonly sandbox = new Map<string, number>();
  readonly names: string[] = [];
  readonly folds: Map<FoldMaker<unknown>, ServerFold<unknown>>;

  constructor(
    private readonly post: PostProcessors,
    readonly drift: DriftFold | undefined,
    readonly failOn: FailOnFold | undefined,
  ) {
    this.folds = new Map((post.folds ?? []).map((make) => [make, make()]));
  }

  add(s: ServerReport): void {
    this.summary.add(s);
    this.drift?.add(s);
    this.failOn?.add(s);
    for (const f of this.folds.values()) f.add(s);
    if (s.target.sandbox) this.sandbox.set(s.target.sandbox, (this.sandbox.get(s.target.sandbox) ?? 0) + 1);
    if (this.post.names) this.names.push(s.name);
  }
}

/** `settle` sees the head before the post-processors add to it, as the report's keys are written in that order. */
export async function postProcess(
  head: ReportHead,
  servers: () => Iterable<ServerReport>,
  post: PostProcessors,
  settle: (head: ReportHead, scanned: number) => Promise<ReportHead> = async (h) => h,
): Promise<Processed> {
  // Lazy: docs/INTERNALS.md, "Start-up".
  const suppress = post.suppress && new (await import('../../compare/suppress.js')).SuppressFold(post.suppress);
  const step = (s: ServerReport, count: boolean) => {
    const shown = post.nameFromServerInfo ? nameFromServerInfo(s) : s;
    return suppress ? suppress.mark(shown, count) : shown;
  };
  const { baseline } = post;
  const drift =
    baseline &&
    new (await import('../../compare/drift.js')).DriftFold(baseline.lock, baseline.file, !!head.options.shard);
  const tallies = new Tallies(post, drift, post.failOn && new FailOnFold(post.failOn));
  for (const s of servers()) tallies.add(step(s, true));
  const summary = tallies.summary.summary();
  let done = await settle(head, summary.servers);
  if (suppress) done = { ...done, options: { ...done.options, suppress: suppress.option() } };
  const found = drift?.drift();
  if (found) done = { ...done, drift: found };
  if (tallies.failOn) done = { ...done, gate: tallies.failOn.gate(found) };
  function* later() {
    for (const s of servers()) yield step(s, false);
  }
  const folded = new Map([...tallies.folds].map(([make, f]) => [make, f.result()]));
  const fold = <T>(make: FoldMaker<T>): T => (folded.has(make) ? (folded.get(make) as T) : foldOver(later(), make));
  return {
    stream: { head: done, summary, servers: later, fold },
    drift: found,
    suppress: suppress?.outcome(),
    failOn: tallies.failOn?.matches(found) ?? [],
    sandbox: tallies.sandbox,
    names: tallies.names,
  };
}
