/**
 * What "pinned" means, in one place for every target format and package type. npm: a package
 * name, `@`, and one exact semver version. Anything npm would read as a range (`1.0.0||*`), a tag,
 * a path, a tarball, a git URL or a flag is refused here, before npm is ever started:
 * `file@1.0.0/../../evil.tgz` would otherwise install (and run the scripts of) a local tarball.
 * PyPI: `name==1.2.3` (PEP 508 name, one exact PEP 440 version); OCI: an image by a tag other than
 * `latest` or by digest; `.mcpb`: a bundle by its sha256. Checked before pip, docker or a download
 * ever starts: `pkg>=1`, `pkg==1.*`, `pkg @ file:///x` or `image` (implicitly `latest`) are refused
 * with the reason.
 */
// Only the parser: all of semver costs ~50 ms at start-up.
import parseSemver from 'semver/functions/parse.js';
import type { ServerReport } from './schema.js';

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

/** PEP 508 distribution name: letters and digits, with `.`, `_`, `-` inside. */
const PYPI_NAME = /^[A-Z0-9](?:[\w.-]{0,198}[A-Z0-9])?$/i;
/** PEP 440 public version in its normalised spelling, plus an optional local part: exact, no `*`. */
const PEP440 = /^(?:\d+!)?\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?$/;

export const SHA256 = /^[0-9a-f]{64}$/;

export interface PypiSpec {
  name: string;
  version: string;
}

/** `name==1.2.3` split and checked; the error says what is wrong and what is expected. */
export function parsePypiSpec(spec: string): PypiSpec | { error: string } {
  const expected = 'expected "name==1.2.3" with one exact version';
  const at = spec.indexOf('==');
  if (at <= 0) {
    const op = /[<>=!~@\s]/.exec(spec);
    return { error: `${op ? `"${op[0]}" is not "=="` : 'no version'}: not pinned; ${expected}` };
  }
  const name = spec.slice(0, at);
  const version = spec.slice(at + 2);
  if (!PYPI_NAME.test(name)) return { error: `not a PyPI package name (letters, digits, ".", "_", "-"); ${expected}` };
  if (version.startsWith('=')) return { error: `"===" (arbitrary equality) is not a version; ${expected}` };
  if (!PEP440.test(version))
    return {
      error: `${version.includes('*') ? 'a wildcard' : 'not an exact PEP 440 version'} (unpinned); ${expected}`,
    };
  return { name, version };
}

/** PEP 503: runs of `-`, `_`, `.` are one `-`, lowercase (the index's and the cache's name). */
export function normalizePypiName(name: string): string {
  let out = '';
  for (const c of name.toLowerCase()) {
    const sep = c === '-' || c === '_' || c === '.';
    if (!sep) out += c;
    else if (!out.endsWith('-')) out += '-';
  }
  return out;
}

export interface OciRef {
  /** The reference as given (`ghcr.io/org/server:1.2.3`, `...@sha256:...`). */
  ref: string;
  tag?: string;
  digest?: string;
}

const OCI_NAME = /^[a-z0-9][\w.-]*(?::\d{1,5})?(?:\/[a-z0-9][\w.-]*)*$/i;
const OCI_TAG = /^\w[\w.-]{0,127}$/;
const OCI_DIGEST = /^sha256:[0-9a-f]{64}$/;

/** An image reference with a tag that is not `latest`, or a digest; else why it is not pinned. */
export function parseOciRef(ref: string): OciRef | { error: string } {
  const expected = 'expected "registry/name:tag" (not "latest") or "name@sha256:..."';
  const at = ref.indexOf('@');
  const digest = at < 0 ? undefined : ref.slice(at + 1);
  const named = at < 0 ? ref : ref.slice(0, at);
  const colon = named.lastIndexOf(':');
  const hasTag = colon > named.lastIndexOf('/');
  const name = hasTag ? named.slice(0, colon) : named;
  const tag = hasTag ? named.slice(colon + 1) : undefined;
  if (ref.startsWith('-') || !OCI_NAME.test(name)) return { error: `not an image name; ${expected}` };
  if (digest !== undefined && !OCI_DIGEST.test(digest)) return { error: `not a sha256 digest; ${expected}` };
  if (tag !== undefined && !OCI_TAG.test(tag)) return { error: `not an image tag; ${expected}` };
  if (digest === undefined && tag === undefined) return { error: `no tag, so "latest" (unpinned); ${expected}` };
  if (digest === undefined && tag === 'latest') return { error: `"latest" is not pinned; ${expected}` };
  return { ref, tag, digest };
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** Why a download URL is refused: https, or plain http on loopback only; `file:` where `local`. */
export function packageUrlProblem(url: string, local = false): string | undefined {
  if (!URL.canParse(url)) return 'not a URL';
  const u = new URL(url);
  if (u.protocol === 'https:' || (local && u.protocol === 'file:')) return undefined;
  if (u.protocol === 'http:' && LOOPBACK.includes(u.hostname)) return undefined;
  return `${u.protocol} is not https (plain http only on loopback)`;
}

/** The package a server ran from and its version: the pinned npm or PyPI version, else what serverInfo says (server text). */
export function serverVersion(s: Pick<ServerReport, 'target' | 'serverInfo'>): { package?: string; version?: string } {
  const spec =
    s.target.npm !== undefined
      ? parsePinnedSpec(s.target.npm)
      : s.target.pypi !== undefined
        ? parsePypiSpec(s.target.pypi)
        : undefined;
  const pinned = spec && 'name' in spec ? spec : undefined;
  const version = pinned?.version ?? s.serverInfo?.version;
  return { ...(pinned ? { package: pinned.name } : {}), ...(version === undefined ? {} : { version }) };
}
