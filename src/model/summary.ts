import type { ServerReport, Summary, Verdict, WeightedSummary } from './schema.js';
import { isAnnotated, total, verdictFields, VERDICTS, zeroCounts } from './verdicts.js';
import { declaresNothing } from './advice.js';

/** Scan and merge both call it, so a merged report counts what one scan would have. */
export function summarize(servers: Iterable<ServerReport>): Summary {
  const tally = new SummaryTally();
  for (const s of servers) tally.add(s);
  return tally.summary();
}

/** One server at a time, so a spooling scan counts servers without holding them. */
export class SummaryTally {
  private servers = 0;
  private ok = 0;
  private failed = 0;
  private annotated = 0;
  private undeclared = 0;
  private readonly verdicts = zeroCounts();
  private weightedServers = 0;
  private downloads = 0;
  private readonly weighted = Object.fromEntries(VERDICTS.map((v) => [v.id, { servers: 0, downloads: 0 }])) as Record<
    Verdict,
    { servers: number; downloads: number }
  >;

  add(s: ServerReport): void {
    this.servers += 1;
    if (s.status === 'ok') this.ok += 1;
    if (s.status === 'failed') this.failed += 1;
    const seen = new Set<Verdict>();
    for (const t of s.tools) {
      if (t.verdict in this.verdicts) this.verdicts[t.verdict] += 1;
      if (isAnnotated(t.annotations)) this.annotated += 1;
      if (declaresNothing(t)) this.undeclared += 1;
      seen.add(t.verdict);
    }
    // Nothing is known of a failed server's tools: counting its downloads would dilute every share.
    if (s.status !== 'ok' || typeof s.target.downloads !== 'number') return;
    this.weightedServers += 1;
    this.downloads += s.target.downloads;
    for (const v of seen) {
      if (!(v in this.weighted)) continue;
      this.weighted[v].servers += 1;
      this.weighted[v].downloads += s.target.downloads;
    }
  }

  summary(): Summary {
    const { readOnly, ...others } = verdictFields(this.verdicts);
    const tools = total(this.verdicts);
    const weighted = this.weightedSummary();
    return {
      servers: this.servers,
      serversOk: this.ok,
      serversFailed: this.failed,
      tools,
      readOnly,
      notReadOnly: tools - readOnly,
      annotated: this.annotated,
      ...others,
      unprotectedUndeclared: this.undeclared,
      ...(weighted ? { weighted } : {}),
    };
  }

  private weightedSummary(): WeightedSummary | undefined {
    if (this.weightedServers === 0) return undefined;
    const total = this.downloads;
    const share = (part: number) => (total > 0 ? Math.round((part / total) * 10_000) / 10_000 : 0);
    const verdicts = {} as WeightedSummary['verdicts'];
    for (const { id: v } of VERDICTS) {
      const { servers, downloads } = this.weighted[v];
      verdicts[v] = { servers, downloads, share: share(downloads) };
    }
    return { servers: this.weightedServers, downloads: total, verdicts };
  }
}
