/**
 * The behaviour table's reporters (docs/PROBE.md, "The behaviour table"): Markdown, a standalone
 * HTML page, and the HTML section the census index shows. They read every judgement from the table
 * (model/behaviour.ts) and escape every server-given string; their words are
 * render/behaviour-view.ts, the Markdown render/behaviour-md.ts, the HTML render/html/behaviour.ts.
 */
import type { BehaviourTable } from '../model/behaviour.js';
import { renderBehaviourMarkdown } from './behaviour-md.js';
import { renderBehaviourPage, renderBehaviourSection } from './html/behaviour.js';

export function behaviourMarkdown(table: BehaviourTable): string {
  return renderBehaviourMarkdown(table);
}

/** A standalone page (the index's kind: one hashed style, no script, nothing fetched), linking behaviour.json beside it. */
export function behaviourHtml(table: BehaviourTable): string {
  return renderBehaviourPage(table);
}

/** An HTML fragment (`<section>...</section>`) for the census index page, linking `href` (the standalone page). */
export function behaviourSection(table: BehaviourTable, href: string): string {
  return renderBehaviourSection(table, href);
}
