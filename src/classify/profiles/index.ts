// Recorded in `report.options.profiles`, so reporters know a team profile's rules from the report alone.
import type { ProfileUse } from '../../model/schema.js';
import { ruleId } from './evaluate.js';
import { builtinProfiles, type LoadedProfile } from './load.js';

export { evaluateProfile, ruleId } from './evaluate.js';
export { BUILTIN_IDS, builtinProfiles, loadProfiles, type LoadedProfile } from './load.js';
export { Profile, profileJsonSchema } from './schema.js';

export { reportRules } from '../../model/rule-pages.js';

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
