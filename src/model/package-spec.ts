/**
 * What "pinned" means, in one place for every target format: an npm package name, `@`, and one
 * exact semver version. Anything npm would read as a range (`1.0.0||*`), a tag, a path, a tarball,
 * a git URL or a flag is refused here, before npm is ever started: `file@1.0.0/../../evil.tgz`
 * would otherwise install (and run the scripts of) a local tarball.
 */
// Only the parser: all of semver costs ~50 ms at start-up.
import parseSemver from 'semver/functions/parse.js';

export interface PinnedSpec {
  name: string;
  version: string;
}

/**
 * npm's rules for a new package name (validate-npm-package-name): lowercase and URL-safe, scoped
 * or not, at most 214 characters, not starting with `.` or `_`. Stricter than npm on purpose: no
 * leading `-` (npm's command line would read it as a flag) and no `..` anywhere (the name becomes
 * a path under the install cache).
 */
const NPM_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;

/** Why `name` is not an npm package name we launch, or undefined. */
export function npmNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'empty package name';
  if (name.length > 214) return 'package name longer than 214 characters';
  if (!NPM_NAME.test(name) || name.includes('..')) {
    return 'not an npm package name (lowercase letters, digits, "-", ".", "_", "~", optionally "@scope/")';
  }
  return undefined;
}

/**
 * Why `version` is not one exact version, or undefined. `semver.valid()` also accepts `v1.2.3` and
 * surrounding spaces; only the canonical spelling passes, so what the report shows is what npm got.
 */
export function exactVersionProblem(version: string): string | undefined {
  const parsed = parseSemver(version);
  const canonical = parsed && parsed.version + (parsed.build.length > 0 ? `+${parsed.build.join('.')}` : '');
  return canonical === version ? undefined : 'not an exact version (unpinned)';
}

/** `name@version` split and checked; the error says which half is wrong (values are not quoted). */
export function parsePinnedSpec(spec: string): PinnedSpec | { error: string } {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return { error: 'expected "name@version" with a pinned, exact version' };
  const name = spec.slice(0, at);
  const version = spec.slice(at + 1);
  const problem = npmNameProblem(name) ?? exactVersionProblem(version);
  return problem ? { error: `${problem}; expected "name@version" with a pinned, exact version` } : { name, version };
}
