/** Diff renderers; names and messages are server text, escaped for each format. */
import { mdText } from './markdown-text.js';
import type { Summary } from '../model/schema.js';
import { noCommandLines, safeText } from './terminal.js';
import type { Change, DiffDocument } from '../model/diff.js';
import type { DiffFormat } from '../model/formats.js';
import { plural, VERDICTS, type VerdictField } from '../model/verdicts.js';

export function renderDiff(doc: DiffDocument, format: DiffFormat): string {
  if (format === 'json') return JSON.stringify(doc, null, 2) + '\n';
  // Whole outputs, so that no line starts a workflow command (terminal.ts, noCommandLines).
  if (format === 'md') return noCommandLines(renderMarkdown(doc));
  return noCommandLines(renderText(doc));
}

/** How a change reads after its subject, with `show` escaping every server-provided string. */
export function describe(c: Change, show: (s: string) => string): string {
  switch (c.kind) {
    case 'server-added':
      return `server added (${c.status}, ${plural(c.tools, 'tool')})`;
    case 'server-removed':
      return `server removed (was ${c.status}, ${plural(c.tools, 'tool')})`;
    case 'status-changed':
      return `status ${c.from} -> ${c.to}${c.failure ? ` (${show(c.failure)})` : ''}`;
    case 'capability-changed':
      return `capability ${c.capability} ${c.to ? 'gained' : 'lost'}`;
    case 'tool-added':
      return `tool added (${c.verdict})`;
    case 'tool-removed':
      return `tool removed (was ${c.verdict})`;
    case 'verdict-changed':
      return `verdict ${c.from} -> ${c.to}`;
    case 'annotation-changed':
      return `${c.hint} ${c.from === undefined ? 'absent' : show(c.from)} -> ${c.to === undefined ? 'absent' : show(c.to)}`;
    case 'key-argument-added':
      return `key argument ${show(c.key.path)} (${c.key.confidence}) gained`;
    case 'key-argument-removed':
      return `key argument ${show(c.key.path)} (${c.key.confidence}) lost`;
    case 'key-argument-changed':
      return `key argument ${show(c.path)} ${c.from} -> ${c.to}`;
    case 'definition-changed':
      return definitionLine(c.fields);
  }
}

/** `definition changed: description, inputSchema` (field names are idemscan's own). */
export function definitionLine(fields: readonly string[]): string {
  return `definition changed${fields.length > 0 ? `: ${fields.join(', ')}` : ' (no hash to compare fields)'}`;
}

/** The tool's name, and which one when the server has several of that name: `foo (#2)`. */
export function toolLabel(c: { tool: string; occurrence?: number }, show: (s: string, max?: number) => string): string {
  return `${show(c.tool, 80)}${c.occurrence === undefined ? '' : ` (#${c.occurrence})`}`;
}

const LABEL = { worse: 'WORSE ', better: 'better', neutral: 'change' } as const;

function summaryLine(label: string, a: number, b: number): string {
  const d = b - a;
  return `${label} ${a} -> ${b}${d === 0 ? '' : ` (${d > 0 ? '+' : ''}${d})`}`;
}

const SUMMARY_ROWS: [Exclude<keyof Summary, 'weighted' | 'probe' | 'unprotectedUndeclared'>, string][] = [
  ['servers', 'servers'],
  ['serversOk', 'servers ok'],
  ['serversFailed', 'servers failed'],
  ['tools', 'tools'],
  ...VERDICTS.map((v): [VerdictField, string] => [v.summaryField, v.id]),
  ['annotated', 'annotated'],
];

function renderText(doc: DiffDocument): string {
  const t = (s: string, max = 300) => safeText(s, max);
  const lines = [
    `old: ${t(doc.old.file ?? 'report')} (${t(doc.old.startedAt, 40)})`,
    `new: ${t(doc.new.file ?? 'report')} (${t(doc.new.startedAt, 40)})`,
    SUMMARY_ROWS.filter(([k]) => k === 'servers' || k === 'tools' || doc.old.summary[k] !== doc.new.summary[k])
      .map(([k, label]) => summaryLine(label, doc.old.summary[k], doc.new.summary[k]))
      .join(', '),
    '',
  ];
  let server: string | undefined;
  for (const c of doc.changes) {
    if (c.server !== server) {
      server = c.server;
      lines.push(t(server, 80));
    }
    const subject = 'tool' in c ? `${toolLabel(c, t)}: ` : '';
    lines.push(`  ${LABEL[c.direction]}  ${subject}${describe(c, t)}`);
    if (c.kind === 'definition-changed')
      for (const l of c.descriptionDiff ?? []) lines.push(`            ${t(l, 240)}`);
  }
  if (doc.changes.length === 0) lines.push('no changes');
  else lines.push('', `${doc.counts.worse} worse, ${doc.counts.better} better, ${doc.counts.neutral} other changes`);
  return lines.join('\n') + '\n';
}

function renderMarkdown(doc: DiffDocument): string {
  const m = (s: string, max = 300) => mdText(s, max);
  const out = [
    '## idemscan diff',
    '',
    `Old: ${m(doc.old.file ?? 'report')} (${m(doc.old.startedAt, 40)}); new: ${m(doc.new.file ?? 'report')} (${m(doc.new.startedAt, 40)})`,
    '',
    '| | old | new | change |',
    '| --- | ---: | ---: | ---: |',
    ...SUMMARY_ROWS.map(([k, label]) => {
      const a = doc.old.summary[k];
      const b = doc.new.summary[k];
      return `| ${label} | ${a} | ${b} | ${b === a ? '' : `${b > a ? '+' : ''}${b - a}`} |`;
    }),
    '',
  ];
  if (doc.changes.length === 0) {
    out.push('No changes.');
    return out.join('\n') + '\n';
  }
  out.push(
    `**${doc.counts.worse} worse**, ${doc.counts.better} better, ${doc.counts.neutral} other changes.`,
    '',
    '| | server | tool | change |',
    '| --- | --- | --- | --- |',
  );
  const icon = { worse: '🔴 worse', better: '🟢 better', neutral: '⚪' } as const;
  for (const c of doc.changes) {
    const diff =
      c.kind === 'definition-changed' && c.descriptionDiff
        ? c.descriptionDiff.map((l) => `<br>${m(l, 240)}`).join('')
        : '';
    out.push(
      `| ${icon[c.direction]} | ${m(c.server, 80)} | ${'tool' in c ? toolLabel(c, m) : ''} | ${describe(c, (s) => m(s))}${diff} |`,
    );
  }
  return out.join('\n') + '\n';
}
