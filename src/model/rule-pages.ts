/**
 * What a rule's `docs` may be, in a profile or a saved report: an https URL, or a page idemscan
 * ships under docs/rules, named by rule id (`missing-annotations`) or as `profiles/<profile>/<requirement>`.
 * Nothing else: a report from a fork or a shard artifact is someone else's text, and a page path
 * is a file that SARIF reads whole into `help.text` (`../../../etc/shadow#`, `/proc/self/environ`).
 */

/** Lowercase words joined by `-` (rule, profile and requirement ids); linear, no backtracking. */
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_DOCS = 2_000;

/** `docs` as a shipped page (a path under docs/rules without `.md`), or undefined when it is not of that form. */
export function shippedPage(docs: string): string | undefined {
  const parts = docs.split('/');
  if (parts.length === 1 && ID.test(parts[0]!)) return docs;
  if (parts.length === 3 && parts[0] === 'profiles' && ID.test(parts[1]!) && ID.test(parts[2]!)) return docs;
  return undefined;
}

/** `docs` when it is an https URL a reader may follow. */
export function httpsDocs(docs: string | undefined): string | undefined {
  if (docs === undefined || docs.length > MAX_DOCS || !docs.startsWith('https://') || !URL.canParse(docs)) return undefined;
  return docs;
}

/** Why `docs` is neither a shipped page nor an https URL, for the error that names the field. */
export function docsProblem(docs: string): string | undefined {
  if (httpsDocs(docs) !== undefined || (docs.length <= MAX_DOCS && shippedPage(docs) !== undefined)) return undefined;
  return 'expected an https URL or a page idemscan ships (a rule id, or profiles/<profile>/<requirement>); a path or another scheme is refused';
}
