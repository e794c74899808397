/** Every cell through mdText: server names and errors are untrusted, and so is a hand-edited table. */
import type { BehaviourServer, BehaviourTable, BehaviourRow } from './behaviour.js';
import { mdText } from '../../render/markdown-text.js';
import {
  agreementCell,
  expectedCell,
  expectedSentence,
  figure,
  headSentence,
  HINTS_HEAD,
  hintsCell,
  methodFigures,
  methodPoints,
  methodSentence,
  outcomeCell,
  outcomeCounts,
  reportHref,
  took,
  toolCell,
  verdictCell,
} from './behaviour-view.js';
import { safeText } from '../../render/terminal.js';
import { when } from '../../render/view.js';

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

/** A code span keeps its text literal; the rest goes through mdText. */
const withCode = (s: string) =>
  s
    .split('`')
    .map((part, i) => (i % 2 === 1 ? `\`${safeText(part, 400)}\`` : mdText(part, 2_000)))
    .join('');

function head(table: BehaviourTable): string[] {
  return [
    '# Behaviour of MCP tools: the lost-response experiment',
    '',
    `Made ${mdText(when(table.generatedAt), 40)} by idemscan ${mdText(table.idemscanVersion, 40)} from the plan library ${mdText(table.method.library, 200)}` +
      `${table.method.targets === undefined ? '' : ` and, without plans, the target list ${mdText(table.method.targets, 200)}`}: ` +
      `${mdText(outcomeCounts(table), 400)}.`,
    '',
    `${mdText(headSentence(table), 1_000)}. ${mdText(expectedSentence(table), 400)}`,
  ];
}

function serverRow(s: BehaviourServer): string {
  return row([
    reportHref(s.report) === undefined ? mdText(s.name, 80) : `[${mdText(s.name, 80)}](${reportHref(s.report)})`,
    mdText(s.package, 120),
    s.version === undefined ? '—' : mdText(s.version, 40),
    figure(s.toolsListed),
    figure(s.experiments),
    figure(s.requests),
    took(s.durationMs),
    s.error === undefined ? '' : mdText(s.error, 300),
  ]);
}

function serverTable(table: BehaviourTable): string[] {
  return [
    '## Servers',
    '',
    row(['server', 'package', 'version', 'tools listed', 'experiments', 'requests', 'time', 'error']),
    row(['---', '---', '---', '--:', '--:', '--:', '--:', '---']),
    ...table.servers.map(serverRow),
  ];
}

function experimentRow(r: BehaviourRow): string {
  const expected = expectedCell(r);
  return row([
    mdText(r.server, 80),
    mdText(toolCell(r), 120),
    hintsCell(r.declared),
    verdictCell(r),
    r.key === null ? '—' : mdText(r.key, 120),
    outcomeCell(r.outcome),
    expected.differs ? `**≠ ${expected.text}**` : expected.text,
    `${agreementCell(r.agreement)}: ${mdText(r.words, 200)}`,
    `${figure(r.requests)} / ${figure(r.durationMs)}`,
  ]);
}

function experimentTable(table: BehaviourTable): string[] {
  return [
    '## Experiments',
    '',
    `One row per experiment (a tool planned as several cases has a row per case). Hints as declared, ${HINTS_HEAD} (— absent: the spec's default applies); ` +
      'expected: the outcome the library file states, **≠** where the probe saw another; each reason is in the JSON table.',
    '',
    row([
      'server',
      'tool',
      `hints (${HINTS_HEAD})`,
      'verdict',
      'key',
      'outcome',
      'expected',
      'agreement',
      'requests / ms',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---', '---', '--:']),
    ...table.rows.map(experimentRow),
  ];
}

/** Plan and `--auto` rows apart, and the servers whose hints overstate what their tools do. */
function byMethod(table: BehaviourTable): string[] {
  const figures = methodFigures(table);
  if (!figures.some((f) => f.method === 'auto')) return [];
  const lines = figures.flatMap((f) => {
    const over = f.overstating.slice(0, 20).map(([s, n]) => `${mdText(s, 80)} (${figure(n)})`);
    return [
      `- ${mdText(methodSentence(f), 600)}.${over.length ? ` Overstating tools by server: ${over.join(', ')}.` : ''}`,
    ];
  });
  return ['## By method', '', ...lines, ''];
}

export function renderBehaviourMarkdown(table: BehaviourTable): string {
  const method = ['## Method and limits', '', ...methodPoints(table).map((p) => `- ${withCode(p)}`)];
  const parts = [...head(table), '', ...byMethod(table), ...serverTable(table), '', ...experimentTable(table)];
  return [...parts, '', ...method, ''].join('\n');
}
