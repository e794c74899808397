/** What a failed npm or pnpm run said, in one bounded line: never its debug log's path, never a local path. */
import { bounded } from '../model/bounds.js';
import { LIMITS } from '../model/limits.js';

/**
 * Not the reason: npm's line naming its debug log and pnpm's naming the project (paths of this
 * machine), pnpm's progress and summary lines, the warnings of retries that came before it, and the
 * frames of a stack pnpm prints (paths of this machine too).
 */
const NOISE =
  /A complete log of this run can be found in|Log files were not written|This error happened while installing|^Progress: |^Packages: |^[+-]+$|^WARN\b|^at .*:\d+:\d+\)?$/;
/** npm's line prefix (and the tag some messages carry: `npm error network ...`), and pnpm's error code. */
const NPM_PREFIX = /^(?:npm (?:error|ERR!) ?(?:(?:network|notarget) )?|ERR_PNPM_[A-Z0-9_]+\s+|ERROR\s+)/;
/** `code E404`, `errno -3008`: a code the lines after it say in words. */
const CODE_LINE = /^(?:code|errno|syscall|path|dest|signal) \S+$/;
/** npm's first lines say what failed; later ones are its general advice. */
const SAID_LINES = 3;
/** What is read of the output, from its end: pnpm's progress lines come before the reason. */
const READ_CHARS = 64 * 1024;

/** npm's or pnpm's output without its noise, trimmed, blank lines dropped. */
export function npmLines(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((l) => l.replace(/\u2009/g, ' ').trim())
    .filter((l) => l !== '' && !NOISE.test(l));
}

/** A failed npm run in one bounded line: a missing package or version said plainly, else npm's first reasons. */
export function npmErrorText(output: string): string {
  const lines = npmLines(output.slice(-READ_CHARS));
  const missing = missingText(lines.join('\n'));
  if (missing) return missing;
  const npmSaid = lines.filter((l) => NPM_PREFIX.test(l)).map((l) => l.replace(NPM_PREFIX, '').trim());
  const reasons = (npmSaid.length ? npmSaid : lines).filter((l) => l !== '' && !CODE_LINE.test(l));
  const said = reasons
    .slice(0, SAID_LINES)
    .map((l) => l.replace(/\.$/, ''))
    .join('; ');
  return said
    ? bounded(said, LIMITS.errorChars)
    : 'npm failed without an error message (its debug log is in _logs of its cache)';
}

/** E404 (no such package, or one this user may not read) and ETARGET (no such version), as npm words them. */
function missingText(text: string): string | undefined {
  const target = /No matching version found for (\S+?)\.?(?:\s|$)/m.exec(text)?.[1];
  if (target) {
    const at = target.lastIndexOf('@');
    const [name, version] = at > 0 ? [target.slice(0, at), target.slice(at + 1)] : [target, ''];
    return `npm has no version ${shown(version || 'matching')} of "${shown(name)}"`;
  }
  if (!/\bE404\b|\b404 Not Found\b|\bERR_PNPM_FETCH_404\b/.test(text)) return undefined;
  const resource = /The requested resource '([^']+)' could not be found/.exec(text)?.[1];
  const at = resource?.lastIndexOf('@') ?? -1;
  const name = resource && at > 0 ? resource.slice(0, at) : (resource ?? urlName(text));
  return name
    ? `npm has no package "${shown(name)}" (404 from the registry)`
    : 'npm has no such package (404 from the registry)';
}

/** The package a `404 Not Found - GET URL` (pnpm: `GET URL: Not Found - 404`) line asked for. */
function urlName(text: string): string | undefined {
  const url = /404 Not Found - GET (\S+)|GET (\S+?):? Not Found - 404/.exec(text)?.slice(1).find(Boolean);
  if (!url) return undefined;
  let segments: string[];
  try {
    segments = decodeURIComponent(new URL(url).pathname).split('/').filter(Boolean);
  } catch {
    return undefined;
  }
  const last = segments.at(-1);
  const scope = segments.at(-2);
  return last && scope?.startsWith('@') ? `${scope}/${last}` : last;
}

const shown = (name: string) => bounded(name, LIMITS.nameChars);
