/** `--fail-on` words, parsed before scanning so an unknown one costs no scan; the matching is app/scan/fail-on.ts. */
import { BUILTIN_IDS, ruleId } from '../../classify/profiles/index.js';
import type { Profile } from '../../classify/profiles/schema.js';
import { CATALOGUE } from '../../model/catalogue.js';
import { Severity, Verdict } from '../../model/schema.js';
import { RANK, type FailOn } from './fail-on.js';
import { InputError } from '../../model/input-error.js';
import { msg, show } from '../../render/message.js';
import { splitList, suggest } from '../../model/words.js';

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
      for (const id of profileWord(word, profileIds)) out.profiles.add(id);
      continue;
    }
    const sev = Severity.safeParse(word);
    const verdict = Verdict.safeParse(word);
    if (word === 'drift') out.drift = true;
    else if (sev.success) {
      if (!out.severity || RANK[sev.data] < RANK[out.severity]) out.severity = sev.data;
    } else if (verdict.success) out.verdicts.add(verdict.data);
    else if (ruleIds.has(word)) out.rules.add(word);
    else throw notAWord(word, [...profileIds, ...ruleIds]);
  }
  return out;
}

/** `profile` (every --profile) or a profile's id: the ids it stands for, if those profiles were given. */
function profileWord(word: string, profileIds: ReadonlySet<string>): Iterable<string> {
  if (word === 'profile' && profileIds.size === 0) throw new InputError('--fail-on profile: no --profile was given');
  if (word !== 'profile' && !profileIds.has(word))
    throw new InputError(`--fail-on ${word}: add --profile ${word}, or its findings are never looked for`);
  return word === 'profile' ? profileIds : [word];
}

function notAWord(word: string, known: readonly string[]): InputError {
  const near = suggest(word, [...Severity.options, ...Verdict.options, 'drift', 'profile', ...BUILTIN_IDS, ...known]);
  const hint = near ? msg`; did you mean "${show.name(near)}"?` : msg``;
  const expected = `a severity (${Severity.options.join(', ')}), a verdict (${Verdict.options.join(', ')}), drift (with --baseline), a rule id (see docs/rules/README.md), profile, or the id of a --profile`;
  return new InputError(msg`--fail-on: unknown "${show.name(word)}"${hint} (expected ${expected})`);
}
