/**
 * The behaviour table's reporters (docs/PROBE.md, "The behaviour table"): Markdown, a standalone
 * HTML page, and the HTML section the census index shows. They read every judgement from the table
 * (model/behaviour.ts) and escape every server-given string.
 *
 * STUB: the renderers' engineer replaces this file; the signatures stay.
 */
import type { BehaviourTable } from '../model/behaviour.js';

export function behaviourMarkdown(table: BehaviourTable): string {
  return `# Behaviour table\n\n${table.rows.length} experiments\n`;
}

export function behaviourHtml(table: BehaviourTable): string {
  return `<!doctype html><title>Behaviour table</title><p>${table.rows.length} experiments</p>\n`;
}

/** An HTML fragment (`<section>...</section>`) for the census index page, linking `href` (the standalone page). */
export function behaviourSection(table: BehaviourTable, href: string): string {
  return `<section><h2>Behaviour table</h2><p>${table.rows.length} experiments, <a href="${href}">table</a></p></section>\n`;
}
