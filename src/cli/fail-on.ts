/**
 * `--fail-on LIST`: the scan exits 1 when anything in the report matches. LIST is comma-separated:
 * a severity (`error`, `warning`, `info`: that severity or a worse one), a rule id (any finding of
 * it), a verdict (any tool with it), `profile` (any finding of a `--profile`) or a profile id (any
 * finding of that profile). Unknown words are a usage error, found before scanning.
 */
import { BUILTIN_IDS, ruleId } from '../classify/profiles/index.js';
import type { Profile } from '../classify/profiles/schema.js';
import { CATALOGUE } from '../model/catalogue.js';
import { Severity, Verdict, type Report } from '../model/schema.js';
import { InputError } from '../model/input-error.js';
import type { Shown } from '../model/shown.js';
import { joinShown, msg, show } from '../render/message.js';
import { splitList, suggest } from './options.js';

export interface FailOn {
  /** The least severe severity that fails, if any was named. */
  severity?: Severity;
  rules: Set<string>;
  verdicts: Set<Verdict>;
  /** `drift`: anything changed since the --baseline lock file (report.drift). */
  drift?: boolean;
  /** Ids of profiles any finding of which fails. */
  profiles: Set<string>;
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** `profiles`: those given with `--profile`, whose ids and rule ids become words too. */
export function parseFailOn(list: string | undefined, profiles: Profile[] = []): FailOn | undefined {
  if (list === undefined) return undefined;
  const words = splitList(list); // case-insensitive: rule ids, verdicts and severities are lowercase
  if (words.length === 0)
    throw new InputError('--fail-on: expected a comma-separated list of severities, rule ids or verdicts');
  const out: FailOn = { rules: new Set(), verdicts: new Set(), profiles: new Set() };
  const ruleIds = new Set([
    ...CATALOGUE.map((r) => r.id),
    ...profiles.flatMap((p) => p.requirements.map((r) => ruleId(p, r))),
  ]);
  const profileIds = new Set(profiles.map((p) => p.id));
  for (const word of words) {
    if (word === 'profile' || profileIds.has(word) || (BUILTIN_IDS as readonly string[]).includes(word)) {
      if (word === 'profile' && profiles.length === 0)
        throw new InputError('--fail-on profile: no --profile was given');
      if (word !== 'profile' && !profileIds.has(word))
        throw new InputError(`--fail-on ${word}: add --profile ${word}, or its findings are never looked for`);
      for (const id of word === 'profile' ? profileIds : [word]) out.profiles.add(id);
      continue;
    }
    const sev = Severity.safeParse(word);
    const verdict = Verdict.safeParse(word);
    if (word === 'drift') out.drift = true;
    else if (sev.success) {
      if (!out.severity || RANK[sev.data] < RANK[out.severity]) out.severity = sev.data;
    } else if (verdict.success) out.verdicts.add(verdict.data);
    else if (ruleIds.has(word)) out.rules.add(word);
    else {
      const near = suggest(word, [
        ...Severity.options,
        ...Verdict.options,
        'drift',
        'profile',
        ...BUILTIN_IDS,
        ...profileIds,
        ...ruleIds,
      ]);
      const hint = near ? msg`; did you mean "${show.name(near)}"?` : msg``;
      const expected = `a severity (${Severity.options.join(', ')}), a verdict (${Verdict.options.join(', ')}), drift (with --baseline), a rule id (see docs/rules/README.md), profile, or the id of a --profile`;
      throw new InputError(msg`--fail-on: unknown "${show.name(word)}"${hint} (expected ${expected})`);
    }
  }
  return out;
}

/** Tools (or servers) named per matched rule or verdict; the rest are counted. */
export const LISTED = 5;

/** `a/x, a/y, b/z and 4 more`. */
function listed(names: readonly string[]): Shown {
  const shown = joinShown(
    names.slice(0, LISTED).map((n) => msg`${show.name(n)}`),
    ', ',
  );
  return names.length > LISTED ? msg`${shown} and ${names.length - LISTED} more` : shown;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * What matched, one line per rule, verdict or drift, each naming the tools it matched
 * (`server/tool`; the server alone for a server-level finding); empty when nothing did.
 */
export function failOnMatches(report: Report, failOn: FailOn): Shown[] {
  const byRule = new Map<string, string[]>();
  for (const s of report.servers) {
    for (const f of [...s.tools.flatMap((t) => t.findings), ...s.findings]) {
      if (f.suppressed) continue; // reviewed and accepted (--suppress): in the report, not in the gate
      const bySeverity = failOn.severity !== undefined && RANK[f.severity] >= RANK[failOn.severity];
      const byProfile =
        failOn.profiles.size > 0 && f.rule.includes('/') && failOn.profiles.has(f.rule.slice(0, f.rule.indexOf('/')));
      if (!bySeverity && !byProfile && !failOn.rules.has(f.rule)) continue;
      const where = byRule.get(f.rule) ?? [];
      where.push(f.tool === undefined ? s.name : `${s.name}/${f.tool}`);
      byRule.set(f.rule, where);
    }
  }
  const lines = [...byRule].map(
    ([rule, where]) => msg`${show.name(rule)} (${plural(where.length, 'finding')}): ${listed(where)}`,
  );
  for (const v of failOn.verdicts) {
    const tools = report.servers.flatMap((s) =>
      s.tools.filter((t) => t.verdict === v).map((t) => `${s.name}/${t.name}`),
    );
    if (tools.length > 0) lines.push(msg`${v} (${plural(tools.length, 'tool')}): ${listed(tools)}`);
  }
  if (failOn.drift && report.drift?.drifted)
    lines.push(msg`drift (${plural(report.drift.changes.length, 'change')} since ${show.path(report.drift.baseline)})`);
  return lines;
}

/** The message on stderr for an exit 1: a line, then one indented line for each match. */
export function failOnText(lines: readonly Shown[]): Shown {
  return msg`idemscan: --fail-on matched:\n${joinShown(
    lines.map((l) => msg`  ${l}\n`),
    '',
  )}`;
}
