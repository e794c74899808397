/**
 * What a rule's `docs` may be, in a profile or a saved report: an https URL, or a page idemscan
 * ships under docs/rules, named by rule id (`missing-annotations`) or as `profiles/<profile>/<requirement>`.
 * Nothing else: a report from a fork or a shard artifact is someone else's text, and a page path
 * is a file that SARIF reads whole into `help.text` (`../../../etc/shadow#`, `/proc/self/environ`).
 * The one place a rule's page is looked up: the shipped file, a `--rules-base-url` link, a profile's page.
 */
import { readFileSync } from 'node:fs';
import { CATALOGUE, type RuleInfo } from './catalogue.js';

/** Lowercase words joined by `-` (rule, profile and requirement ids); linear, no backtracking. */
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_DOCS = 2_000;

/** `docs` as a shipped page (a path under docs/rules without `.md`), or undefined when it is not of that form. */
function shippedPage(docs: string): string | undefined {
  const parts = docs.split('/');
  if (parts.length === 1 && ID.test(parts[0]!)) return docs;
  if (parts.length === 3 && parts[0] === 'profiles' && ID.test(parts[1]!) && ID.test(parts[2]!)) return docs;
  return undefined;
}

/** `docs` when it is an https URL a reader may follow. */
export function httpsDocs(docs: string | undefined): string | undefined {
  if (docs === undefined || docs.length > MAX_DOCS || !docs.startsWith('https://') || !URL.canParse(docs))
    return undefined;
  return docs;
}

/** Why `docs` is neither a shipped page nor an https URL, for the error that names the field. */
export function docsProblem(docs: string): string | undefined {
  if (httpsDocs(docs) !== undefined || (docs.length <= MAX_DOCS && shippedPage(docs) !== undefined)) return undefined;
  return 'expected an https URL or a page idemscan ships (a rule id, or profiles/<profile>/<requirement>); a path or another scheme is refused';
}

/** A rule with its page: a path under docs/rules without `.md` (builtin), or an https URL. */
export type DocumentedRule = RuleInfo & { docs?: string };

/**
 * The page of one of idemscan's own rules under docs/rules (no `.md`); none for a team profile's
 * rules. Only a page of the form idemscan ships, whatever `docs` a report holds.
 */
export function ownPage(rule: DocumentedRule): string | undefined {
  if (rule.docs) return shippedPage(rule.docs);
  return shippedPage(rule.id);
}

/** The catalogue a report's findings come from: the rules, then the rules of the profiles it used. */
export function reportRules(report: {
  options: { profiles?: readonly { rules: readonly DocumentedRule[] }[] };
}): DocumentedRule[] {
  const seen = new Set<string>(CATALOGUE.map((r) => r.id));
  const extra = (report.options.profiles ?? [])
    .flatMap((p) => p.rules)
    .filter((r) => !seen.has(r.id) && seen.add(r.id));
  return [...CATALOGUE, ...extra];
}

/**
 * Where a rule's page is for the reader: a team profile's own https page, or `page` (a path under
 * docs/rules without `.md`, the rule id by default) under `--rules-base-url`; none without it.
 */
export function ruleDocUrl(id: string, base: string | undefined, page?: string): string | undefined {
  if (page !== undefined && httpsDocs(page) !== undefined) return page;
  if (base === undefined) return undefined;
  const shipped = page === undefined ? shippedPage(id) : shippedPage(page);
  return shipped === undefined ? undefined : new URL(`${shipped}.md`, base.endsWith('/') ? base : `${base}/`).href;
}

/** docs/rules/ of the installed package (`files` in package.json ships docs): dist/model/ and src/model/ are both two levels down. */
const RULE_PAGES = new URL('../../docs/rules/', import.meta.url);
const pages = new Map<string, string | undefined>();

/** The file of a shipped page (a path under docs/rules without `.md`); undefined for any other form. */
export function shippedPageUrl(page: string): URL | undefined {
  return shippedPage(page) === undefined ? undefined : new URL(`${page}.md`, RULE_PAGES);
}

/**
 * A page as shipped, read once; undefined when it is not there, or when `page` is not of a shipped
 * page's form: whatever a report says, no file outside docs/rules is read.
 */
export function rulePage(page: string): string | undefined {
  const url = shippedPageUrl(page);
  if (url === undefined) return undefined;
  if (!pages.has(page)) {
    let text: string | undefined;
    try {
      // A file of the installed package (the URL is only ever one of its pages), not of the user.
      text = readFileSync(url, 'utf8');
    } catch {
      text = undefined;
    }
    pages.set(page, text);
  }
  return pages.get(page);
}

/**
 * The page as the reader has it: under `--rules-base-url` when given, else the file shipped in the
 * installed package (docs/rules/), when it is there. For the HTML page, which is opened on the
 * machine that made it; SARIF and Markdown travel, and link only with `--rules-base-url`.
 */
export function readerPageUrl(rule: DocumentedRule, base: string | undefined): string | undefined {
  const page = ownPage(rule);
  if (page === undefined) return undefined;
  if (base !== undefined) return ruleDocUrl(rule.id, base, page);
  return rulePage(page) === undefined ? undefined : shippedPageUrl(page)!.href;
}
