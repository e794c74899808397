/**
 * Profiles as rules: each requirement is a rule `<profile>/<requirement>` with its severity, title
 * and docs page, recorded in `report.options.profiles` so that reporters (SARIF's rule list) know
 * the rules of a team's own profile from the report alone.
 */
import type { ProfileUse, Report } from '../../report/schema.js';
import { CATALOGUE } from '../rules/catalogue.js';
import type { RuleInfo } from '../rules/types.js';
import { ruleId } from './evaluate.js';
import { builtinProfiles, type LoadedProfile } from './load.js';

export { evaluateProfile, ruleId } from './evaluate.js';
export { BUILTIN_IDS, builtinProfiles, loadProfiles, ProfileError, type LoadedProfile } from './load.js';
export { Profile, profileJsonSchema } from './schema.js';

/** A rule with its page: a path under docs/rules without `.md` (builtin), or an https URL. */
export type DocumentedRule = RuleInfo & { docs?: string };

/** What `report.options.profiles` records of a profile used. */
export function profileUse({ profile, path, sha256 }: LoadedProfile): ProfileUse {
  const builtin = path === undefined && builtinProfiles().get(profile.id) === profile;
  return {
    id: profile.id,
    title: profile.title,
    ...(path === undefined ? {} : { path, sha256 }),
    rules: profile.requirements.map((req) => ({
      id: ruleId(profile, req),
      severity: req.severity,
      title: req.title,
      ...(builtin ? { docs: `profiles/${profile.id}/${req.id}` } : req.docs ? { docs: req.docs } : {}),
    })),
  };
}

/** The page of one of idemscan's own rules under docs/rules (no `.md`); none for a team profile's rules. */
export function ownPage(rule: DocumentedRule): string | undefined {
  if (rule.docs) return rule.docs.startsWith('https://') ? undefined : rule.docs;
  return rule.id.includes('/') ? undefined : encodeURIComponent(rule.id);
}

/** The catalogue a report's findings come from: the rules, then the rules of the profiles it used. */
export function reportRules(report: Pick<Report, 'options'>): DocumentedRule[] {
  const seen = new Set<string>(CATALOGUE.map((r) => r.id));
  const extra = (report.options.profiles ?? []).flatMap((p) => p.rules).filter((r) => !seen.has(r.id) && seen.add(r.id));
  return [...CATALOGUE, ...extra];
}
