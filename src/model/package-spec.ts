// What "pinned" means, checked before npm, pip or docker starts: `file@1.0.0/../../evil.tgz` would run a tarball.
// Only the parser: all of semver costs ~50 ms at start-up.
import parseSemver from 'semver/functions/parse.js';
import type { ServerReport } from './schema.js';

export interface PinnedSpec {
  name: string;
  version: string;
}

/** validate-npm-package-name, stricter: no leading `-` (a flag) and no `..` (it becomes a cache path). */
const NPM_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;

export function npmNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'empty package name';
  if (name.length > 214) return 'package name longer than 214 characters';
  if (!NPM_NAME.test(name) || name.includes('..')) {
    return 'not an npm package name (lowercase letters, digits, "-", ".", "_", "~", optionally "@scope/")';
  }
  return undefined;
}

/** Only the canonical spelling passes (not `v1.2.3`), so what the report shows is what npm got. */
export function exactVersionProblem(version: string): string | undefined {
  const parsed = parseSemver(version);
  const canonical = parsed && parsed.version + (parsed.build.length > 0 ? `+${parsed.build.join('.')}` : '');
  return canonical === version ? undefined : 'not an exact version (unpinned)';
}

/** The error says which half is wrong, without quoting values. */
export function parsePinnedSpec(spec: string): PinnedSpec | { error: string } {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return { error: 'expected "name@version" with a pinned, exact version' };
  const name = spec.slice(0, at);
  const version = spec.slice(at + 1);
  const problem = npmNameProblem(name) ?? exactVersionProblem(version);
  return problem ? { error: `${problem}; expected "name@version" with a pinned, exact version` } : { name, version };
}

/** PEP 508. */
const PYPI_NAME = /^[A-Z0-9](?:[\w.-]{0,198}[A-Z0-9])?$/i;
/** PEP 440, normalised spelling, exact. */
const PEP440 = /^(?:\d+!)?\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?$/;

export const SHA256 = /^[0-9a-f]{64}$/;

export interface PypiSpec {
  name: string;
  version: string;
}

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

/** PEP 503: the index's and the cache's name. */
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
  /** As given. */
  ref: string;
  tag?: string;
  digest?: string;
}

const OCI_NAME = /^[a-z0-9][\w.-]*(?::\d{1,5})?(?:\/[a-z0-9][\w.-]*)*$/i;
const OCI_TAG = /^\w[\w.-]{0,127}$/;
const OCI_DIGEST = /^sha256:[0-9a-f]{64}$/;

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

export function packageUrlProblem(url: string, local = false): string | undefined {
  if (!URL.canParse(url)) return 'not a URL';
  const u = new URL(url);
  if (u.protocol === 'https:' || (local && u.protocol === 'file:')) return undefined;
  if (u.protocol === 'http:' && LOOPBACK.includes(u.hostname)) return undefined;
  return `${u.protocol} is not https (plain http only on loopback)`;
}

/** The pinned version, else what serverInfo says (server text). */
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
