/**
 * The rules a report's reader needs (SARIF's rule list, Markdown's links), apart from index.ts so
 * that reporters load no profile schemas (zod, built at import) to render a report.
 */
import { shippedPage } from '../../model/rule-pages.js';
import type { Report } from '../../model/schema.js';
import { CATALOGUE } from '../../model/catalogue.js';
import type { RuleInfo } from '../rules/types.js';

/** A rule with its page: a path under docs/rules without `.md` (builtin), or an https URL. */
export type DocumentedRule = RuleInfo & { docs?: string };

/**
 * The page of one of idemscan's own rules under docs/rules (no `.md`); none for a team profile's
 * rules. Only a page of the form idemscan ships (rule-pages.ts), whatever `docs` a report holds.
 */
export function ownPage(rule: DocumentedRule): string | undefined {
  if (rule.docs) return shippedPage(rule.docs);
  return shippedPage(rule.id);
}

/** The catalogue a report's findings come from: the rules, then the rules of the profiles it used. */
export function reportRules(report: Pick<Report, 'options'>): DocumentedRule[] {
  const seen = new Set<string>(CATALOGUE.map((r) => r.id));
  const extra = (report.options.profiles ?? []).flatMap((p) => p.rules).filter((r) => !seen.has(r.id) && seen.add(r.id));
  return [...CATALOGUE, ...extra];
}
