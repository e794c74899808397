/** Pinned only: npm `1.2.3`, PyPI `==1.2.3`, an OCI digest or tag other than `latest`, `.mcpb` by `fileSha256`. */
import {
  exactVersionProblem,
  npmNameProblem,
  packageUrlProblem,
  parseOciRef,
  parsePypiSpec,
  SHA256,
} from '../../model/package-spec.js';
import type { TargetPackage } from '../types.js';
import { quote, withoutTrailingSlashes } from './registry-values.js';

/** The fields of a registry `packages[]` entry the readers look at (registry.ts's `Pkg` schema checks them). */
interface PkgData {
  identifier?: string;
  name?: string;
  registryBaseUrl?: string;
  version?: unknown;
  fileSha256?: unknown;
}
type Read = TargetPackage | { skip: string };

/** Where idemscan installs npm packages from; a package declared on another registry is another package. */
const NPM_REGISTRY = 'https://registry.npmjs.org';
const PYPI = 'https://pypi.org';
const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

const pinnedOnly = 'idemscan launches pinned packages only';

function npm(pkg: PkgData, field: string): Read {
  const id = pkg.identifier ?? pkg.name;
  if (!id || !pkg.version) return { skip: `${field}: npm package without identifier or version` };
  const idProblem = npmNameProblem(id);
  if (idProblem) return { skip: `${field}.${pkg.identifier ? 'identifier' : 'name'}: ${quote(id)}: ${idProblem}` };
  const versionProblem =
    typeof pkg.version === 'string' ? exactVersionProblem(pkg.version) : 'not an exact version (unpinned)';
  if (versionProblem) return { skip: `${field}.version: ${quote(pkg.version)} is ${versionProblem}; ${pinnedOnly}` };
  if (pkg.registryBaseUrl !== undefined && withoutTrailingSlashes(pkg.registryBaseUrl) !== NPM_REGISTRY) {
    return {
      skip: `${field}.registryBaseUrl: ${quote(pkg.registryBaseUrl)} is not ${NPM_REGISTRY}, where idemscan installs from`,
    };
  }
  return { type: 'npm', spec: `${id}@${pkg.version as string}` };
}

function pypi(pkg: PkgData, field: string): Read {
  const id = pkg.identifier ?? pkg.name;
  if (!id || !pkg.version) return { skip: `${field}: PyPI package without identifier or version` };
  if (typeof pkg.version !== 'string')
    return { skip: `${field}.version: ${quote(pkg.version)} is not an exact version (unpinned); ${pinnedOnly}` };
  const named = parsePypiSpec(`${id}==0`);
  if ('error' in named)
    return { skip: `${field}.${pkg.identifier ? 'identifier' : 'name'}: ${quote(id)}: not a PyPI package name` };
  const got = parsePypiSpec(`${id}==${pkg.version}`);
  if ('error' in got)
    return {
      skip: `${field}.version: ${quote(pkg.version)} is not an exact PEP 440 version (unpinned); ${pinnedOnly}`,
    };
  // The entry's own index (`registryBaseUrl` + `/simple`, PEP 503): any, file:// included.
  const base = pkg.registryBaseUrl === undefined ? undefined : withoutTrailingSlashes(pkg.registryBaseUrl);
  if (base === undefined || base === PYPI) return { type: 'pypi', spec: `${got.name}==${got.version}` };
  const index = base.endsWith('/simple') ? base : `${base}/simple`;
  const problem = packageUrlProblem(index, true);
  if (problem) return { skip: `${field}.registryBaseUrl: ${quote(pkg.registryBaseUrl)}: ${problem}` };
  return { type: 'pypi', spec: `${got.name}==${got.version}`, index };
}

function mcpb(pkg: PkgData, field: string): Read {
  const url = pkg.identifier;
  if (!url) return { skip: `${field}.identifier: missing (the bundle's URL)` };
  const problem = packageUrlProblem(url);
  if (problem) return { skip: `${field}.identifier: ${quote(url)}: ${problem}` };
  if (pkg.fileSha256 === undefined)
    return {
      skip: `${field}.fileSha256: missing: a bundle is downloaded only to be checked against its sha256 before it is unpacked`,
    };
  const sha = typeof pkg.fileSha256 === 'string' ? pkg.fileSha256.toLowerCase() : '';
  if (!SHA256.test(sha)) return { skip: `${field}.fileSha256: ${quote(pkg.fileSha256)} is not 64 hex digits` };
  return { type: 'mcpb', url, sha256: sha };
}

function oci(pkg: PkgData, field: string): Read {
  let ref = pkg.identifier ?? pkg.name;
  if (!ref) return { skip: `${field}.identifier: missing (the image)` };
  // Older entries give the tag as `version` and the registry as `registryBaseUrl`.
  const lastPart = ref.slice(ref.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !ref.includes('@') && typeof pkg.version === 'string') ref = `${ref}:${pkg.version}`;
  const host = pkg.registryBaseUrl && URL.canParse(pkg.registryBaseUrl) ? new URL(pkg.registryBaseUrl).host : undefined;
  const [first = ''] = ref.split('/');
  if (host && !DOCKER_HUB.has(host) && !first.includes('.') && !first.includes(':')) ref = `${host}/${ref}`;
  const got = parseOciRef(ref);
  if ('error' in got) return { skip: `${field}.identifier: ${quote(ref)}: ${got.error}; ${pinnedOnly}` };
  return { type: 'oci', ref };
}

export const PACKAGE_READERS = { npm, pypi, mcpb, oci } satisfies Record<string, (pkg: PkgData, field: string) => Read>;
