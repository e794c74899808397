// 5,000 tools with every text at its bound make a 300 MB report. Memory: docs/INTERNALS.md, "Untrusted input".
import { HINT_NAMES } from './verdicts.js';
import { bounded } from './bounds.js';
import type { Finding, ServerReport, ToolReport } from './schema.js';
import { RULE } from './catalogue.js';
import { finding } from './finding.js';
import { plural } from './verdicts.js';

export const REPORT_BYTES_PER_SERVER = 4 * 1024 * 1024;

const HEADER = 16;
const OBJECT = 32;
const SLOT = 8;

/** Heap bytes, not JSON length: `[{},{},...]` takes 20 times its JSON size once parsed. */
export function sizeEstimate(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += HEADER + v.length;
    else if (Array.isArray(v)) {
      total += HEADER + SLOT * v.length;
      for (const item of v) {
        if (typeof item === 'string') total += HEADER + item.length;
        else if (item !== null && typeof item === 'object') stack.push(item);
      }
    } else if (v !== null && typeof v === 'object') {
      total += OBJECT;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        total += 2 * SLOT + HEADER + key.length;
        stack.push((v as Record<string, unknown>)[key]);
      }
    } else total += SLOT;
  }
  return total;
}

/** Enough to read what a tool is and why it got its verdict. */
export interface ShortLimits {
  description: number;
  keyArguments: number;
  findings: number;
  message: number;
  /** Title, a key argument's name, a finding's tool and evidence. */
  label: number;
}

const SHORT: ShortLimits = { description: 300, keyArguments: 5, findings: 10, message: 200, label: 80 };

/** Verdict and effective hints are never touched. */
export function shortTool(t: ToolReport, limits: ShortLimits = SHORT): ToolReport {
  const keys = [
    ...t.keyArguments.filter((k) => k.confidence === 'strong'),
    ...t.keyArguments.filter((k) => k.confidence !== 'strong'),
  ];
  return {
    ...t,
    title: t.title === undefined ? undefined : bounded(t.title, limits.label),
    description: t.description === undefined ? undefined : bounded(t.description, limits.description),
    annotations: t.annotations && shortAnnotations(t.annotations),
    keyArguments: keys
      .slice(0, limits.keyArguments)
      .map((k) => ({ ...k, name: bounded(k.name, limits.label), path: bounded(k.path, 2 * limits.label) })),
    findings: t.findings.slice(0, limits.findings).map((f) => shortFinding(f, limits)),
  };
}

function shortAnnotations(a: Record<string, unknown>): Record<string, unknown> {
  if (sizeEstimate(a) <= 1_000) return a;
  const out: Record<string, unknown> = { _truncated: true };
  for (const k of HINT_NAMES)
    if (Object.hasOwn(a, k))
      out[k] = typeof a[k] === 'string' ? bounded(a[k] as string, 40) : typeof a[k] === 'object' ? '[object]' : a[k];
  if (typeof a.title === 'string') out.title = bounded(a.title, 120);
  return out;
}

function shortFinding(f: Finding, limits: ShortLimits): Finding {
  const label = (s: string | undefined) => (s === undefined ? undefined : bounded(s, limits.label));
  return { ...f, message: bounded(f.message, limits.message), tool: label(f.tool), evidence: label(f.evidence) };
}

/** Tools are kept whole, in order, until the budget is spent; a finding counts the rest. */
export function fitServerReport(server: ServerReport, limit = REPORT_BYTES_PER_SERVER): ServerReport {
  let used = 0;
  let shortened = 0;
  const tools = server.tools.map((t) => {
    if (used <= limit) used += sizeEstimate(t);
    if (used <= limit) return t;
    shortened++;
    return shortTool(t);
  });
  if (shortened === 0) return server;
  const cut = finding(
    RULE.memoryBudget,
    `the report of this server would exceed ${Math.round(limit / 1024 / 1024)} MiB: the texts of its last ${plural(shortened, 'tool')} are shortened (verdicts and hints are complete)`,
    { evidence: 'report' },
  );
  return { ...server, tools, findings: [...server.findings, cut] };
}
