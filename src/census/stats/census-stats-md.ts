/** One column per group so the whole census and its head read side by side; server text through mdText. */
import { mdText } from '../../render/markdown-text.js';
import { HINT_NAMES, VERDICTS } from '../../model/verdicts.js';
import type { CensusStats, StatsGroup } from './census-stats-schema.js';

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const n = (x: number) => x.toLocaleString('en-US');
const pct = (part: number, whole: number) =>
  whole > 0 ? `${(Math.round((1000 * part) / whole) / 10).toFixed(1)}%` : '-';
const of = (part: number, whole: number) => `${n(part)} (${pct(part, whole)})`;

type Figure = [string, (g: StatsGroup) => string];

function figures(): Figure[] {
  const tools = (g: StatsGroup) => g.summary.tools;
  const list: Figure[] = [
    ['servers scanned', (g) => n(g.summary.serversOk)],
    ['tools', (g) => n(tools(g))],
    ['tools annotated (any hint)', (g) => of(g.summary.annotated, tools(g))],
  ];
  for (const hint of HINT_NAMES) {
    list.push([
      `${hint} given (true / false)`,
      (g) => `${of(g.hints[hint].given, tools(g))} (${n(g.hints[hint].true)} / ${n(g.hints[hint].false)})`,
    ]);
  }
  list.push([
    'hint values that are no boolean (read as the default)',
    (g) => n(HINT_NAMES.reduce((sum, h) => sum + g.hints[h].malformed, 0)),
  ]);
  list.push(['tools with a title', (g) => of(g.titled, tools(g))]);
  for (const v of VERDICTS) list.push([`verdict ${v.id}, tools`, (g) => of(g.summary[v.summaryField], tools(g))]);
  for (const v of VERDICTS)
    list.push([
      `downloads of servers with ${v.id} tools`,
      (g) =>
        g.summary.weighted ? pct(g.summary.weighted.verdicts[v.id].downloads, g.summary.weighted.downloads) : '-',
    ]);
  list.push(['unprotected tools without any hint', (g) => of(g.summary.unprotectedUndeclared ?? 0, tools(g))]);
  list.push(['servers advertising tools.idempotency', (g) => n(g.idempotencyCapability)]);
  list.push(['keyed tools', (g) => n(g.summary.keyed)]);
  return list;
}

/** A mixed report's pooled `all` stays in stats.json for its readers, but is not set beside its parts here. */
function shown(stats: CensusStats): StatsGroup[] {
  return stats.groups.filter((g) => g.population.length === 1 || stats.groups.length === 1);
}

function headline(stats: CensusStats): string[] {
  const groups = shown(stats);
  const words = (g: StatsGroup) =>
    g.population.map((id) => stats.population.parts.find((p) => p.id === id)?.label ?? id).join(' + ');
  return [
    row(['figure', ...groups.map((g) => g.id)]),
    row(['---', ...groups.map(() => '--:')]),
    row(['population', ...groups.map((g) => mdText(words(g), 120))]),
    ...figures().map(([label, cell]) => row([label, ...groups.map(cell)])),
  ];
}

function keyTable(g: StatsGroup): string[] {
  if (!g.keyNames.length) return [`No keyed tool among ${g.title}.`];
  return [
    row(['key argument', 'tools', 'servers']),
    row(['---', '--:', '--:']),
    ...g.keyNames.map((k) => row([mdText(k.name, 80), n(k.tools), n(k.servers)])),
  ];
}

function contradictionTable(g: StatsGroup): string[] {
  if (!g.contradictions.length) return [`No contradicting hints among ${g.title}.`];
  return [
    row(['combination', 'tools', 'servers']),
    row(['---', '--:', '--:']),
    ...g.contradictions.map((c) => row([mdText(c.combination, 120), n(c.tools), n(c.servers)])),
  ];
}

function sizeTable(g: StatsGroup): string[] {
  return [
    row([
      'size',
      'servers',
      'tools',
      'tools annotated',
      'tools unprotected',
      'servers all annotated',
      'servers with an unprotected tool',
    ]),
    row(['---', '--:', '--:', '--:', '--:', '--:', '--:']),
    ...g.bySize.map((b) =>
      row([
        b.band,
        n(b.servers),
        n(b.tools),
        of(b.annotatedTools, b.tools),
        of(b.unprotectedTools, b.tools),
        of(b.serversAllAnnotated, b.servers),
        of(b.serversWithUnprotected, b.servers),
      ]),
    ),
  ];
}

function counts(title: string, record: Record<string, number>): string[] {
  const entries = Object.entries(record).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (!entries.length) return [];
  return [
    '',
    `### ${title}`,
    '',
    row(['why', 'entries']),
    row(['---', '--:']),
    ...entries.map(([k, v]) => row([mdText(k, 80), n(v)])),
  ];
}

function pooledNote(stats: CensusStats): string {
  if (stats.population.parts.length < 2) return '';
  return ' Each population is counted apart; stats.json also has them pooled (group `all`), which is not shown here.';
}

export function censusStatsMarkdown(stats: CensusStats): string {
  const lines = [
    `# Census statistics`,
    '',
    `From ${mdText(stats.report.file, 120)} (${mdText(stats.report.startedAt, 40)}, ${mdText(stats.report.tool, 60)}).`,
    '',
    `Population: ${mdText(stats.population.label, 400)}.${pooledNote(stats)}`,
    '',
    ...headline(stats),
  ];
  for (const g of shown(stats)) {
    lines.push('', `## ${g.title}`, '', '### Keyed tools by key name', '', ...keyTable(g));
    lines.push('', '### Hints that contradict each other', '', ...contradictionTable(g));
    lines.push('', '### By server size', '', ...sizeTable(g));
  }
  lines.push(
    ...counts('Servers that failed, by failure kind', stats.failed),
    ...counts('Entries skipped, by cause', stats.skipped),
  );
  lines.push('', '## Method', '', ...stats.method.map((m) => `- ${m}`), '');
  return lines.join('\n');
}
