/** The behaviour table's reporters (docs/PROBE.md); they read every judgement from the table. */
import type { BehaviourTable } from './behaviour.js';
import { renderBehaviourMarkdown } from './behaviour-md.js';
import { renderBehaviourPage, renderBehaviourSection } from './behaviour-html.js';

export function behaviourMarkdown(table: BehaviourTable): string {
  return renderBehaviourMarkdown(table);
}

/** A standalone page (one hashed style, no script, nothing fetched), linking behaviour.json beside it. */
export function behaviourHtml(table: BehaviourTable): string {
  return renderBehaviourPage(table);
}

/** An HTML fragment (`<section>...</section>`) for the census index page, linking `href` (the standalone page). */
export function behaviourSection(table: BehaviourTable, href: string): string {
  return renderBehaviourSection(table, href);
}
