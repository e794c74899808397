/** The terminal table and audit view: rows add up, the headline, widths 60/80/120, hostile names. */
import { describe, expect, it } from 'vitest';
import { headlineLines, summaryTable, tableReporter } from '../../src/render/table.js';
import { serverSummary, toolsReporter } from '../../src/render/tools.js';
import type { ServerReport } from '../../src/model/schema.js';
import { commandLines, cutMiddle, displayWidth, distinctCuts, outputWidth } from '../../src/render/width.js';
import { okServer, reportOf } from '../helpers/reports.js';
import { shellWord } from '../../src/model/invocation.js';

const RO = { readOnlyHint: true };
const tools = [
  { name: 'get', annotations: RO },
  { name: 'pay', inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } } },
  { name: 'set', annotations: { readOnlyHint: false, idempotentHint: true } },
  { name: 'send', annotations: { readOnlyHint: false } },
];

const server = (
  name: string,
  extra: Partial<ServerReport> = {},
  capabilities?: Record<string, unknown>,
): ServerReport =>
  okServer(name, tools, {
    protocol: { era: 'legacy', version: '2025-06-18' },
    ...(capabilities ? { capabilities } : {}),
    ...extra,
  });
const report = (servers: ServerReport[]) => reportOf(servers);

const failed: ServerReport = {
  ...server('crashy'),
  tools: [],
  findings: [],
  status: 'failed',
  protocol: undefined,
  failure: { kind: 'exited', message: 'the server exited with code 1', stderr: 'starting\nfatal: no database\n\n' },
};

/** Long, near-identical (differing only in the middle), wide (CJK, emoji), equal, padded, escaped. */
const HOSTILE = [
  'github-enterprise-server-production-eu-west-1-primary',
  'github-enterprise-server-production-eu-west-2-primary',
  'github-enterprise-server-production-eu-west-1-primarx',
  '服务器名称很长的中文服务器名称很长的中文服务器',
  '服务器名称很长的中文服务器名称很长的中文服务器２',
  '🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀',
  '🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀',
  'twin',
  'twin',
  'twin ',
  'evil\u001b[2J\u200bname',
  'a…b~1',
  'total',
];

const hostile = report([
  ...HOSTILE.map((n) => server(n)),
  failed,
  server('keyed-by-protocol', {}, { tools: { idempotency: {} } }),
]);

/** The server rows of a rendered table: the lines between the two rules, without failure details. */
function serverRows(text: string): string[] {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.startsWith('---'));
  const last = lines.findIndex((l, i) => i > first && l.startsWith('---'));
  return lines.slice(first + 1, last).filter((l) => !l.startsWith('    '));
}

describe('summary table', () => {
  it('has a column for every verdict, and each row adds up to its tools', () => {
    const text = tableReporter.render(report([server('one'), server('two', {}, { tools: { idempotency: {} } })]));
    const [head] = text.split('\n');
    for (const v of ['read-only', 'protocol-keyed', 'keyed', 'idempotent', 'unprotected']) expect(head).toContain(v);
    const lines = text.split('\n');
    const rows = [...serverRows(text), lines.find((l) => l.startsWith('total'))!];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const numbers = row
        .match(/\b\d+\b/g)!
        .map(Number)
        .slice(-6);
      expect(numbers[0], row).toBe(numbers.slice(1).reduce((a, b) => a + b, 0));
    }
    expect(rows[1]).toMatch(/ 4 +1 +3 +0 +0 +0 /); // protocol-keyed: the server advertises tools.idempotency
  });

  it('leads with the headline from report.summary, not from a recount', () => {
    const r = report([server('one')]);
    // A summary that disagrees with the tools (as an edited or merged report might): the table says what the summary says.
    r.summary = {
      ...r.summary,
      notReadOnly: 945,
      keyed: 4,
      protocolKeyed: 1,
      idempotent: 100,
      unprotected: 840,
      tools: 1_300,
      servers: 57,
      serversFailed: 3,
    };
    const [first, second] = headlineLines(r);
    expect(first).toBe(
      '5 of 945 tools that are not read-only can be retried safely (<1%), across 57 servers (3 failed to scan).',
    );
    expect(second).toContain('1 protocol-keyed and 4 keyed; 100 more are only hint-idempotent');
    expect(headlineLines(report([]))).toEqual(['No tools were listed, across 0 servers.']);
  });

  for (const width of [60, 80, 120]) {
    it(`fits ${width} columns with hostile names, every server on its own distinct row`, () => {
      const text = tableReporter.render(hostile, { width });
      for (const line of text.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      expect(text).not.toMatch(/\+-|\|/); // no box drawing, no row separators
      const rows = serverRows(text);
      expect(rows).toHaveLength(hostile.servers.length);
      const names = rows.map((r) => r.slice(0, r.search(/ {2}\S/)).trimEnd());
      expect(new Set(names).size, names.join('\n')).toBe(names.length);
      // eslint-disable-next-line no-control-regex
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u200b]/);
    });
  }

  it('on a pipe (no width) names are whole', () => {
    const text = tableReporter.render(hostile);
    for (const name of HOSTILE.slice(0, 7)) expect(text).toContain(name);
    expect(text).toContain('twin\\u0020'); // a trailing space would vanish in the padding
  });

  it("puts a failed server's reason and last stderr line right under its row", () => {
    const r = report([server('one'), failed]);
    const lines = summaryTable(r.servers, r.summary, 80).lines;
    const at = lines.findIndex((l) => l.startsWith('crashy'));
    expect(lines[at + 1]).toBe('    exited: the server exited with code 1');
    expect(lines[at + 2]).toBe('    stderr: fatal: no database');
  });
});

describe('widths', () => {
  it('counts wide characters twice and cuts in the middle on code points', () => {
    expect(displayWidth('ab')).toBe(2);
    expect(displayWidth('中文')).toBe(4);
    expect(displayWidth('🚀x')).toBe(3);
    expect(displayWidth('e\u0301')).toBe(1);
    const cut = cutMiddle('中文中文中文中文中文', 9);
    expect(displayWidth(cut)).toBeLessThanOrEqual(9);
    expect(cut).toContain('…');
    expect(cutMiddle('😀😀😀😀😀😀', 5)).not.toMatch(/[\ud800-\udfff](?![\udc00-\udfff])/u);
  });

  it('measures as cli-table3 draws: names with combining marks past U+036F are shown whole, each its own', () => {
    // Hebrew points and a Devanagari sign: cli-table3 (string-width) counts each as a column.
    const names = [
      '\u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd-staging',
      '\u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd-prod',
      'ki\u0901-db',
    ];
    const r = report(names.map((n) => server(n)));
    const lines = summaryTable(r.servers, r.summary, Infinity).lines;
    for (const n of names)
      expect(
        lines.some((l) => l.startsWith(`${n} `)),
        lines.join('\n'),
      ).toBe(true);
  });

  it('keeps shortened texts distinct, even against a text that looks like a cut', () => {
    const texts = ['abcdefghij-1-klmnop', 'abcdefghij-2-klmnop', 'abcdefghij-1-klmnop', 'abc…mnop', 'abc…mnop~1'];
    for (const w of [3, 5, 8, 10, 40]) {
      const out = distinctCuts(texts, w);
      expect(new Set(out).size, out.join(' | ')).toBe(texts.length);
      if (w >= 5) for (const s of out) expect(displayWidth(s)).toBeLessThanOrEqual(w);
    }
  });

  it('is the terminal width on a TTY, COLUMNS when set, and unbounded for a pipe', () => {
    expect(outputWidth({ isTTY: true, columns: 100 }, {})).toBe(100);
    expect(outputWidth({ isTTY: true, columns: 100 }, { COLUMNS: '60' })).toBe(60);
    expect(outputWidth({}, {})).toBe(Infinity);
  });
});

describe('audit view', () => {
  it('shows each finding with its message and rule page, and a summary line', () => {
    const r = report([server('one')]);
    const text = toolsReporter.render(r, { width: 80 });
    const finding = r.servers[0]!.tools.flatMap((t) => t.findings)[0]!;
    expect(text).toContain(finding.rule);
    expect(text).toContain(`docs/rules/${finding.rule}.md`);
    expect(text.replace(/\s+/g, ' ')).toContain(finding.message.replace(/\s+/g, ' ').slice(0, 40));
    expect(text.replace(/\s+/g, ' ')).toContain(serverSummary(r.servers[0]!));
    expect(serverSummary(r.servers[0]!)).toMatch(
      /^4 tools: 1 read-only, 1 keyed, 1 idempotent, 1 unprotected; \d+ findings? \(/,
    );
    for (const line of text.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    const linked = toolsReporter.render(r, { rulesBaseUrl: 'https://example.org/rules' });
    expect(linked).toContain(`https://example.org/rules/${finding.rule}.md`);
  });

  it('prints duplicate tool names as distinct rows', () => {
    const s = server('dup');
    s.tools = [s.tools[0]!, { ...s.tools[0]! }];
    const text = toolsReporter.render(report([s]), { width: 80 });
    const rows = text.split('\n').filter((l) => l.startsWith('  get'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).not.toBe(rows[1]);
  });
});

describe('commandLines', () => {
  it('breaks a command only at spaces outside quotes, each line within the width, and the lines paste back', () => {
    const command = "node /a/very/long/path/to/dist/cli/main.js report 'my out/report.json' --format tools";
    const lines = commandLines(command, 40);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line.endsWith(' \\')).toBe(true);
    expect(lines.some((l) => l.includes("'my out/report.json'"))).toBe(true);
    const pasted = lines.map((l) => l.trim().replace(/ \\$/, '')).join(' ');
    expect(pasted).toBe(command);
    // Only the word that cannot fit alone is wider than the line.
    expect(lines.filter((l) => l.length > 40).map((l) => l.trim())).toEqual([
      '/a/very/long/path/to/dist/cli/main.js \\',
    ]);
  });

  it("keeps a word with a quote in it (shellWord's '\\'') whole", () => {
    const command = `idemscan report ${shellWord("Bob's runs/report.json")} --format tools`;
    const lines = commandLines(command, 30);
    expect(lines.some((l) => l.includes(shellWord("Bob's runs/report.json")))).toBe(true);
    expect(lines.map((l) => l.trim().replace(/ \\$/, '')).join(' ')).toBe(command);
  });

  it('keeps a command that fits on one line', () => {
    expect(commandLines('idemscan report r.json --format tools', 80)).toEqual([
      '  idemscan report r.json --format tools',
    ]);
  });
});
