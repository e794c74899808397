import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../../package.json') as {
  name: string;
  version: string;
  repository?: unknown;
};

export const TOOL_NAME: string = pkg.name;
export const TOOL_VERSION: string = pkg.version;

/** "Fill me in" segments: a link made from one is a page that does not exist. */
const PLACEHOLDERS = new Set(['owner', 'user', 'username', 'org', 'organization', 'your-org', 'your-name', 'yourname']);
const PLACEHOLDER_MARKS = /[<>{}$]/;

/** Any of npm's `repository` forms; undefined for a placeholder (`<owner>/idemscan`). */
export function repositoryUrl(repository: unknown): string | undefined {
  const given =
    typeof repository === 'string'
      ? repository
      : repository && typeof repository === 'object' && typeof (repository as { url?: unknown }).url === 'string'
        ? (repository as { url: string }).url
        : undefined;
  if (given === undefined || given.length > 500) return undefined;
  let url = given.trim().replace(/^git\+/, '');
  if (/^(?:github:)?[\w.-]+\/[\w.-]+$/.test(url)) url = `https://github.com/${url.replace(/^github:/, '')}`;
  url = url.replace(/^git@([\w.-]+):/, 'https://$1/').replace(/^git:\/\//, 'https://');
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  const parts = parsed.pathname
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password || parts.length < 2) return undefined;
  if (/(?:^|\.)example\.(?:com|org|net)$/.test(parsed.hostname)) return undefined;
  if (parts.some((p) => PLACEHOLDERS.has(p.toLowerCase()) || PLACEHOLDER_MARKS.test(decodeURIComponentSafe(p))))
    return undefined;
  return `https://${parsed.host}/${parts.join('/')}`;
}

function decodeURIComponentSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A fork that publishes sets it, and then the reports link its pages. */
export const TOOL_REPOSITORY: string | undefined = repositoryUrl(pkg.repository);
