// A rule's `docs` is an https URL or a shipped page, nothing else: SARIF reads a page path whole into `help.text`.
import { readFileSync } from 'node:fs';
import { CATALOGUE, type RuleInfo } from './catalogue.js';

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_DOCS = 2_000;

function shippedPage(docs: string): string | undefined {
  const parts = docs.split('/');
  if (parts.length === 1 && ID.test(parts[0]!)) return docs;
  if (parts.length === 3 && parts[0] === 'profiles' && ID.test(parts[1]!) && ID.test(parts[2]!)) return docs;
  return undefined;
}

export function httpsDocs(docs: string | undefined): string | undefined {
  if (docs === undefined || docs.length > MAX_DOCS || !docs.startsWith('https://') || !URL.canParse(docs))
    return undefined;
  return docs;
}

export function docsProblem(docs: string): string | undefined {
  if (httpsDocs(docs) !== undefined || (docs.length <= MAX_DOCS && shippedPage(docs) !== undefined)) return undefined;
  return 'expected an https URL or a page idemscan ships (a rule id, or profiles/<profile>/<requirement>); a path or another scheme is refused';
}

/** `docs`: a path under docs/rules without `.md`, or an https URL. */
export type DocumentedRule = RuleInfo & { docs?: string };

/** Only a page of the form idemscan ships, whatever `docs` a report holds. */
export function ownPage(rule: DocumentedRule): string | undefined {
  if (rule.docs) return shippedPage(rule.docs);
  return shippedPage(rule.id);
}

/** The catalogue (its probe rules only in a probe's report), then the rules of the profiles the report used. */
export function reportRules(report: {
  options: { profiles?: readonly { rules: readonly DocumentedRule[] }[]; probe?: unknown };
}): DocumentedRule[] {
  const seen = new Set<string>(CATALOGUE.map((r) => r.id));
  const extra = (report.options.profiles ?? [])
    .flatMap((p) => p.rules)
    .filter((r) => !seen.has(r.id) && seen.add(r.id));
  const catalogue = report.options.probe === undefined ? CATALOGUE.filter((r) => r.scope !== 'probe') : CATALOGUE;
  return [...catalogue, ...extra];
}

/** A profile's own https page, or the shipped page under `--rules-base-url`; none without it. */
export function ruleDocUrl(id: string, base: string | undefined, page?: string): string | undefined {
  if (page !== undefined && httpsDocs(page) !== undefined) return page;
  if (base === undefined) return undefined;
  const shipped = page === undefined ? shippedPage(id) : shippedPage(page);
  return shipped === undefined ? undefined : new URL(`${shipped}.md`, base.endsWith('/') ? base : `${base}/`).href;
}

/** dist/model/ and src/model/ are both two levels down. */
const RULE_PAGES = new URL('../../docs/rules/', import.meta.url);
const pages = new Map<string, string | undefined>();

export function shippedPageUrl(page: string): URL | undefined {
  return shippedPage(page) === undefined ? undefined : new URL(`${page}.md`, RULE_PAGES);
}

/** Whatever a report says, no file outside docs/rules is read. */
export function rulePage(page: string): string | undefined {
  const url = shippedPageUrl(page);
  if (url === undefined) return undefined;
  if (!pages.has(page)) {
    let text: string | undefined;
    try {
      // A file of the installed package, not of the user.
      text = readFileSync(url, 'utf8');
    } catch {
      text = undefined;
    }
    pages.set(page, text);
  }
  return pages.get(page);
}

/** For the HTML page, opened on the machine that made it; SARIF and Markdown travel, so they don't use this. */
export function readerPageUrl(rule: DocumentedRule, base: string | undefined): string | undefined {
  const page = ownPage(rule);
  if (page === undefined) return undefined;
  if (base !== undefined) return ruleDocUrl(rule.id, base, page);
  return rulePage(page) === undefined ? undefined : shippedPageUrl(page)!.href;
}
