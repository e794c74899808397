/** One place, so HTML and Markdown never describe the method differently. */
import { TOOL_REPOSITORY } from '../model/version.js';

/** Plain sentences; `code` spans are marked with backticks (each reporter renders them its way). */
const METHOD_POINTS: readonly string[] = [
  'What is read: what each server declares when its tools are listed (`tools/list`): the tool annotations (hints) and input schemas, and its capabilities. No tool is ever called (`tools/call` is never sent), so nothing here is observed behaviour.',
  'Hints are untrusted: a server can declare anything. A tool counted as hint-only idempotent is safe to retry only if you trust the server; the verdicts say what a client may assume, not what a tool does.',
  '"Unprotected" means a tool that is not read-only and has no protection against a repeated call: no key argument, no `tools.idempotency` capability, no `idempotentHint`. Tools without annotations count as unprotected, because the spec\'s defaults make them destructive writes. A client that retries one after a timeout may repeat its effect.',
  'A key argument or capability says a server offers deduplication, not that it implements it correctly; servers that failed or were skipped contribute no tools.',
];

/** For a report of `idemscan probe`, whose planned tools were called: the first point would not be true. */
const PROBE_POINT =
  'What is read: what the server declares when its tools are listed (`tools/list`), and, for the tools of the probe plan only, what the lost-response experiment observed: each was called (`tools/call`), its answer treated as lost, and the call re-issued with the same key (docs/PROBE.md). Every other tool was never called.';

/** A probe report says which tools were called; `--writable` what the sandbox let the servers change. */
export function methodPoints(report: {
  summary: { probe?: unknown };
  options?: { writable?: readonly string[] };
}): readonly string[] {
  const points = report.summary.probe ? [PROBE_POINT, ...METHOD_POINTS.slice(1)] : METHOD_POINTS;
  const writable = report.options?.writable ?? [];
  return writable.length > 0 ? [...points, writablePoint(writable)] : points;
}

/** At most this many `--writable` paths are named, each cut to PATH_CHARS. */
const NAMED_PATHS = 10;
const PATH_CHARS = 200;

/** A saved report is untrusted: each path is one cut code span, so no markup can be steered by it. */
function writablePoint(paths: readonly string[]): string {
  const clean = (p: string) =>
    [...String(p)]
      .filter((c) => c !== '`' && c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
      .slice(0, PATH_CHARS)
      .join('');
  const named = paths.slice(0, NAMED_PATHS).map((p) => `\`${clean(p)}\``);
  const more = paths.length > NAMED_PATHS ? ` and ${paths.length - NAMED_PATHS} more` : '';
  return `Under \`--sandbox\`, the servers could write to ${named.join(', ')}${more} (\`--writable\`, the user's choice: a test backend); everything else outside their scratch space was read-only or hidden.`;
}

/** Where docs/METHODOLOGY.md is when there is no page to link: in the package, and in any clone. */
export const METHODOLOGY_PLACE = "docs/METHODOLOGY.md in idemscan's package or repository";

/** None when package.json names no real repository: a placeholder link leads nowhere (see METHODOLOGY_PLACE). */
export function methodologyUrl(rulesBaseUrl?: string, repository = TOOL_REPOSITORY): string | undefined {
  let base = rulesBaseUrl;
  while (base?.endsWith('/')) base = base.slice(0, -1);
  if (base?.endsWith('/rules') && URL.canParse(base)) return `${base.slice(0, -'rules'.length)}METHODOLOGY.md`;
  return repository === undefined ? undefined : `${repository}/blob/main/docs/METHODOLOGY.md`;
}
