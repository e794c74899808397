/** Long texts shortened past PAGE_BYTES (docs/INTERNALS.md, Memory); verdicts, hints and counts never. */
import { bounded } from '../../model/bounds.js';
import { shortTool, type ShortLimits } from '../../model/budget.js';
import type { Report, ToolReport } from '../../model/schema.js';
import { json } from './escape.js';

/** Estimated page bytes (tool rows and the embedded JSON) before tools get the shortest texts. */
const PAGE_BYTES = 16 * 1024 * 1024;
/** Description characters of all tools together; each gets its share, from 200 to all of it. */
const DESCRIPTION_CHARS = 2_000_000;
/** Above the report's own bounds: a page of a few hundred ordinary tools is the report as it is. */
const ROOMY = { description: 4_100, keyArguments: 10, findings: 20, message: 1_000, label: 300 };

const MINIMAL: ShortLimits = { description: 60, keyArguments: 1, findings: 2, message: 80, label: 40 };

export interface PageReport {
  report: Report;
  /** Tools whose texts on the page (and in its JSON) are shorter than in the report. */
  shortened: number;
}

export function pageReport(report: Report): PageReport {
  const total = report.servers.reduce((n, s) => n + s.tools.length, 0);
  const share = Math.max(200, Math.min(ROOMY.description, Math.floor(DESCRIPTION_CHARS / Math.max(1, total))));
  const roomy: ShortLimits = { ...ROOMY, description: share };
  let used = 0;
  let shortened = 0;
  const fit = (t: ToolReport): ToolReport => {
    const short = used > PAGE_BYTES ? minimal(t) : shortTool(t, roomy);
    const same = sameTexts(t, short);
    const kept = same ? t : short;
    if (!same) shortened++;
    // Once as HTML, once as JSON: both escape the same characters, at about the same cost.
    used += 2 * json(kept).length;
    return kept;
  };
  const servers = report.servers.map((s) => (s.tools.length === 0 ? s : { ...s, tools: s.tools.map(fit) }));
  if (shortened === 0) return { report, shortened };
  return { report: { ...report, options: { ...report.options, htmlShortenedTools: shortened }, servers }, shortened };
}

/** The shortest texts: a finding's tool is the row's, and its evidence is left out. */
function minimal(t: ToolReport): ToolReport {
  const short = shortTool(t, MINIMAL);
  return {
    ...short,
    name: bounded(t.name, 80),
    findings: short.findings.map(({ rule, severity, message, suppressed }) => ({
      rule,
      severity,
      message,
      ...(suppressed ? { suppressed } : {}),
    })),
  };
}

/** Whether shortening left every text as it was (then the tool is kept as it is). */
function sameTexts(a: ToolReport, b: ToolReport): boolean {
  return (
    a.name === b.name &&
    a.title === b.title &&
    a.description === b.description &&
    a.annotations === b.annotations &&
    a.keyArguments.length === b.keyArguments.length &&
    a.keyArguments.every((k) => b.keyArguments.some((x) => x.path === k.path && x.name === k.name)) &&
    a.findings.length === b.findings.length &&
    a.findings.every(
      (f, i) =>
        f.message === b.findings[i]!.message &&
        f.tool === b.findings[i]!.tool &&
        f.evidence === b.findings[i]!.evidence,
    )
  );
}
