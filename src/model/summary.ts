import type { ServerReport, Summary, WeightedSummary } from './schema.js';
import { countVerdicts, isAnnotated, verdictFields, VERDICTS } from './verdicts.js';

/**
 * Counts over every tool of every server that was scanned (failed servers add no tools), and,
 * when targets record their monthly downloads, the same weighted by use. The one place both are
 * computed: scan and merge call it, so a merged report counts what one scan would have.
 */
export function summarize(servers: ServerReport[]): Summary {
  const tools = servers.flatMap((s) => s.tools);
  const { readOnly, ...others } = verdictFields(countVerdicts(tools));
  const weighted = weightedSummary(servers);
  return {
    servers: servers.length,
    serversOk: servers.filter((s) => s.status === 'ok').length,
    serversFailed: servers.filter((s) => s.status === 'failed').length,
    tools: tools.length,
    readOnly,
    notReadOnly: tools.length - readOnly,
    annotated: tools.filter((t) => isAnnotated(t.annotations)).length,
    ...others,
    ...(weighted ? { weighted } : {}),
  };
}

/**
 * Download-weighted figures over scanned-ok servers with a `downloads` figure, or undefined when
 * there is none (an ordinary scan's summary stays as it was). A failed server's downloads are left
 * out of the total: nothing is known of its tools, and counting it would dilute every share.
 */
export function weightedSummary(servers: readonly ServerReport[]): WeightedSummary | undefined {
  const counted = servers.filter((s) => s.status === 'ok' && typeof s.target.downloads === 'number');
  if (counted.length === 0) return undefined;
  const total = counted.reduce((n, s) => n + s.target.downloads!, 0);
  const share = (part: number) => (total > 0 ? Math.round((part / total) * 10_000) / 10_000 : 0);
  const verdicts = {} as WeightedSummary['verdicts'];
  for (const { id: v } of VERDICTS) {
    const having = counted.filter((s) => s.tools.some((t) => t.verdict === v));
    const downloads = having.reduce((n, s) => n + s.target.downloads!, 0);
    verdicts[v] = { servers: having.length, downloads, share: share(downloads) };
  }
  return { servers: counted.length, downloads: total, verdicts };
}
