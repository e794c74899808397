/** `--fail-on` as a fold: counts and the first few names, so a 10,000-server scan holds no list of every match. */
import { LIMITS } from '../../model/limits.js';
import { plural } from '../../model/verdicts.js';
import type {
  Drift,
  Finding,
  Gate,
  GateMatch,
  ServerReport,
  Severity,
  ToolReport,
  Verdict,
} from '../../model/schema.js';
import type { Shown } from '../../model/shown.js';
import { joinShown, msg, show } from '../../render/message.js';

export interface FailOn {
  /** The least severe severity that fails, if any was named. */
  severity?: Severity;
  rules: Set<string>;
  verdicts: Set<Verdict>;
  drift?: boolean;
  /** Ids of profiles any finding of which fails. */
  profiles: Set<string>;
}

export const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** Tools (or servers) named per matched rule or verdict; the rest are counted. */
const LISTED = 5;

interface Matched {
  count: number;
  names: string[];
}

function add(to: Map<string, Matched>, key: string, name: string): void {
  const m = to.get(key) ?? { count: 0, names: [] };
  m.count += 1;
  if (m.names.length < LISTED) m.names.push(name);
  to.set(key, m);
}

/** `a/x, a/y, b/z and 4 more`. */
function listed({ count, names }: Matched): Shown {
  const shown = joinShown(
    names.map((n) => msg`${show.name(n)}`),
    ', ',
  );
  return count > LISTED ? msg`${shown} and ${count - LISTED} more` : shown;
}

/** The list as parsed, in the order the words' kinds are told: what `gate.failOn` records. */
function words(f: FailOn): string[] {
  return [...(f.severity ? [f.severity] : []), ...f.rules, ...f.verdicts, ...(f.drift ? ['drift'] : []), ...f.profiles];
}

export class FailOnFold {
  private readonly byRule = new Map<string, Matched>();
  private readonly byVerdict = new Map<string, Matched>();
  private readonly gateMatches: GateMatch[] = [];
  private matched = 0;
  private accepted = 0;

  constructor(private readonly failOn: FailOn) {}

  private fails(f: Finding): boolean {
    const { severity, profiles, rules } = this.failOn;
    if (f.suppressed) return false; // reviewed and accepted (--suppress): in the report, not in the gate
    if (severity !== undefined && RANK[f.severity] >= RANK[severity]) return true;
    if (profiles.size > 0 && f.rule.includes('/') && profiles.has(f.rule.slice(0, f.rule.indexOf('/')))) return true;
    return rules.has(f.rule);
  }

  /** The tool's verdict when it fails the gate; an accepted one is counted apart. */
  private failingVerdict(t: ToolReport): Verdict | undefined {
    if (!this.failOn.verdicts.has(t.verdict)) return undefined;
    if (t.accepted?.verdict === t.verdict) {
      this.accepted++;
      return undefined;
    }
    return t.verdict;
  }

  add(s: ServerReport): void {
    // A server finding naming a tool (duplicate-tool-name) joins that tool's match: a tool is one gate line.
    const failing = s.findings.filter((x) => this.fails(x));
    const own = new Map<string | undefined, string[]>();
    for (const f of failing) own.set(f.tool, [...(own.get(f.tool) ?? []), f.rule]);
    for (const t of s.tools) {
      const rules = t.findings.filter((f) => this.fails(f)).map((f) => f.rule);
      for (const rule of rules) add(this.byRule, rule, `${s.name}/${t.name}`);
      rules.push(...(own.get(t.name) ?? []));
      own.delete(t.name);
      const verdict = this.failingVerdict(t);
      if (verdict) add(this.byVerdict, verdict, `${s.name}/${t.name}`);
      if (verdict || rules.length > 0) this.keep({ server: s.name, tool: t.name, verdict, rules });
    }
    // After the tools' own, as stderr lists them: the server's findings last.
    for (const f of failing) add(this.byRule, f.rule, f.tool === undefined ? s.name : `${s.name}/${f.tool}`);
    for (const [tool, rules] of own) this.keep({ server: s.name, tool, rules });
  }

  private keep({ server, tool, verdict, rules }: GateMatch): void {
    this.matched++;
    if (this.gateMatches.length >= LIMITS.gateMatches) return;
    this.gateMatches.push({
      server,
      ...(tool === undefined ? {} : { tool }),
      ...(verdict ? { verdict } : {}),
      ...(rules && rules.length > 0 ? { rules: [...new Set(rules)] } : {}),
    });
  }

  /** The report's `gate`: what matched, for SARIF and the Action's summary. */
  gate(drift: Drift | undefined): Gate {
    return {
      failOn: words(this.failOn),
      verdicts: [...this.failOn.verdicts],
      matched: this.matched,
      matches: this.gateMatches,
      ...(this.failOn.drift && drift?.drifted ? { drift: true } : {}),
      ...(this.accepted > 0 ? { accepted: this.accepted } : {}),
    };
  }

  matches(drift: Drift | undefined): Shown[] {
    const lines = [...this.byRule].map(
      ([rule, m]) => msg`${show.name(rule)} (${plural(m.count, 'finding')}): ${listed(m)}`,
    );
    for (const v of this.failOn.verdicts) {
      const m = this.byVerdict.get(v);
      if (m) lines.push(msg`${v} (${plural(m.count, 'tool')}): ${listed(m)}`);
    }
    if (this.failOn.drift && drift?.drifted)
      lines.push(msg`drift (${plural(drift.changes.length, 'change')} since ${show.path(drift.baseline)})`);
    return lines;
  }
}

export function failOnText(lines: readonly Shown[]): Shown {
  return msg`idemscan: --fail-on matched:\n${joinShown(
    lines.map((l) => msg`  ${l}\n`),
    '',
  )}`;
}
