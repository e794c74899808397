/** `scan --baseline`: the drift (compare/drift.ts) as a terminal listing on stderr. */
import type { Drift, DriftChange } from '../model/schema.js';
import { plural } from '../model/verdicts.js';
import { definitionLine } from './diff.js';
import { safeText } from './terminal.js';

/** Lines of the listing on stderr at most; the report holds every change. */
const DRIFT_LINES = 60;

/** The drift as a terminal listing: every server-sent string through safeText, bounded. */
export function renderDrift(drift: Drift): string {
  const t = (s: string, max = 200) => safeText(s, max);
  if (!drift.drifted) return `idemscan: no drift since ${t(drift.baseline, 300)} (locked ${t(drift.lockedAt, 40)})\n`;
  const lines = [
    `idemscan: drift since ${t(drift.baseline, 300)} (locked ${t(drift.lockedAt, 40)}): ${drift.changes.length} change(s)`,
  ];
  for (const c of drift.changes) {
    const who =
      'tool' in c
        ? `${t(c.server, 80)}/${t(c.tool, 80)}${c.occurrence === undefined ? '' : ` (#${c.occurrence})`}`
        : t(c.server, 80);
    lines.push(`  ${who}: ${what(c, t)}`);
    if (c.kind === 'definition-changed') for (const l of c.descriptionDiff ?? []) lines.push(`      ${t(l, 240)}`);
  }
  const shown =
    lines.length > DRIFT_LINES
      ? [...lines.slice(0, DRIFT_LINES), `  ... ${lines.length - DRIFT_LINES} more line(s): see report.drift`]
      : lines;
  return shown.join('\n') + '\n';
}

function what(c: DriftChange, t: (s: string, max?: number) => string): string {
  switch (c.kind) {
    case 'server-added':
      return `server not in the lock (${plural(c.tools, 'tool')})`;
    case 'server-removed':
      return `server in the lock, not scanned now (${plural(c.tools, 'tool')})`;
    case 'server-failed':
      return `server failed, its locked tools cannot be checked${c.failure ? ` (${t(c.failure, 200)})` : ''}`;
    case 'tool-added':
      return `tool added (${c.verdict})`;
    case 'tool-removed':
      return `tool removed (was ${c.verdict})`;
    case 'definition-changed':
      return definitionLine(c.fields);
    case 'hint-weakened':
      return `${c.hint} weakened: ${c.from === undefined ? 'absent' : t(c.from, 40)} -> ${c.to === undefined ? 'absent' : t(c.to, 40)}`;
    case 'verdict-worse':
      return `verdict ${c.from} -> ${c.to}`;
  }
}
