/**
 * `--fail-on LIST`: the scan exits 1 when anything in the report matches. LIST is comma-separated:
 * a severity (`error`, `warning`, `info`: that severity or a worse one), a rule id (any finding of
 * it), or a verdict (any tool with it). Unknown words are a usage error, found before scanning.
 */
import { CATALOGUE } from '../classify/rules/index.js';
import { Severity, Verdict, type Report } from '../report/schema.js';
import { safeText } from '../report/terminal.js';
import { UsageError } from './exit.js';

export interface FailOn {
  /** The least severe severity that fails, if any was named. */
  severity?: Severity;
  rules: Set<string>;
  verdicts: Set<Verdict>;
  /** `drift`: anything changed since the --baseline lock file (report.drift). */
  drift?: boolean;
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export function parseFailOn(list: string | undefined): FailOn | undefined {
  if (list === undefined) return undefined;
  const words = list.split(',').map((w) => w.trim()).filter(Boolean);
  if (words.length === 0) throw new UsageError('--fail-on: expected a comma-separated list of severities, rule ids or verdicts');
  const out: FailOn = { rules: new Set(), verdicts: new Set() };
  const ruleIds = new Set(CATALOGUE.map((r) => r.id));
  for (const word of words) {
    const sev = Severity.safeParse(word);
    const verdict = Verdict.safeParse(word);
    if (word === 'drift') out.drift = true;
    else if (sev.success) {
      if (!out.severity || RANK[sev.data] < RANK[out.severity]) out.severity = sev.data;
    } else if (verdict.success) out.verdicts.add(verdict.data);
    else if (ruleIds.has(word)) out.rules.add(word);
    else {
      throw new UsageError(
        `--fail-on: unknown "${word}"; expected a severity (${Severity.options.join(', ')}), a verdict (${Verdict.options.join(', ')}), ` +
          'drift (with --baseline) or a rule id (see docs/rules/README.md)',
      );
    }
  }
  return out;
}

/** What matched, one line per kind, for the message on stderr; empty when nothing did. */
export function failOnMatches(report: Report, failOn: FailOn): string[] {
  const findings = report.servers.flatMap((s) => [...s.tools.flatMap((t) => t.findings), ...s.findings]);
  const lines: string[] = [];
  const count = new Map<string, number>();
  for (const f of findings) {
    const bySeverity = failOn.severity !== undefined && RANK[f.severity] >= RANK[failOn.severity];
    if (bySeverity || failOn.rules.has(f.rule)) count.set(f.rule, (count.get(f.rule) ?? 0) + 1);
  }
  if (count.size > 0) lines.push(`findings: ${[...count].map(([rule, n]) => `${rule} (${n})`).join(', ')}`);
  for (const v of failOn.verdicts) {
    const tools = report.servers.flatMap((s) => s.tools.filter((t) => t.verdict === v).map((t) => safeText(`${s.name}/${t.name}`, 80)));
    if (tools.length > 0) lines.push(`${tools.length} ${v} tool(s): ${tools.slice(0, 5).join(', ')}${tools.length > 5 ? ', ...' : ''}`);
  }
  if (failOn.drift && report.drift?.drifted) lines.push(`drift: ${report.drift.changes.length} change(s) since ${safeText(report.drift.baseline, 200)}`);
  return lines;
}
