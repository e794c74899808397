/**
 * The behaviour table's reporters (census/behaviour/behaviour-render.ts) on a hand-written table
 * (test/fixtures/behaviour/table.json, valid against the schema) whose server names, tool names,
 * keys, reasons and errors are hostile: `<script>`, `|`, newlines, ANSI escapes. Every row is
 * present, the counts are the table's own, the method section is there, and nothing escapes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BehaviourTable } from '../../src/census/behaviour/behaviour.js';
import { PROBE_OUTCOMES } from '../../src/model/probe-outcomes.js';
import { VERDICT } from '../../src/model/verdicts.js';
import { behaviourHtml, behaviourMarkdown, behaviourSection } from '../../src/census/behaviour/behaviour-render.js';
import { SECTION_ROWS } from '../../src/census/behaviour/behaviour-html.js';

const table = BehaviourTable.parse(
  JSON.parse(readFileSync(new URL('../fixtures/behaviour/table.json', import.meta.url), 'utf8')),
);
const md = behaviourMarkdown(table);
const page = behaviourHtml(table);
const section = behaviourSection(table, 'behaviour/behaviour.html');

const HEAD =
  'Of 6 experiments on 3 servers (1 more could not be probed), 2 agree with what the tool declares, 2 understate (declare not idempotent, or nothing, but did not repeat their effect), ' +
  '1 overstate (declare idempotent, a key or read-only and repeated their effect, or changed state while read-only), 1 unknown (the probe could not tell)';

/** The rows of the Markdown table whose header starts with `first`. */
function mdRows(first: string): string[] {
  const lines = md.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  const end = lines.findIndex((l, i) => i > at && !l.startsWith('|'));
  return lines.slice(at + 2, end);
}

/** The cells of one Markdown row, an escaped `\|` kept inside its cell. */
const cells = (line: string) =>
  line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());

describe('the behaviour table in Markdown', () => {
  it('has the head with the counts the table stores, and how many matched the expected outcome', () => {
    expect(md).toContain(HEAD);
    expect(md).toContain(
      "5 experiments state an expected outcome, worked out from the server's own source; 3 matched it, 2 differ.",
    );
    expect(md).toContain('Made 2026-12-01 05:00 UTC by idemscan 0.1.0');
    expect(md).toContain('2 retry-safe, 1 reissue-refused, 2 repeated-effect, 1 failed');
  });

  it('has a row per server and per experiment, each at its column count whatever the server sent', () => {
    const servers = mdRows('server | package');
    const rows = mdRows('server | tool');
    expect(servers).toHaveLength(table.servers.length);
    expect(rows).toHaveLength(table.rows.length);
    for (const line of servers) expect(cells(line)).toHaveLength(8);
    for (const line of rows) expect(cells(line)).toHaveLength(9);
    expect(cells(servers[3]!)[7]).toContain('could not start: &lt;b&gt;exit 1&lt;/b&gt;');
    expect(cells(servers[0]!).slice(3, 7)).toEqual(['9', '2', '14', '1.8 s']);
    // A server's probe report is linked only as a plain relative path.
    expect(cells(servers[0]!)[0]).toBe('[memory](memory/report.json)');
    expect(cells(servers[1]!)[0]).toBe('sqlite');
    expect(md).not.toMatch(/passwd|javascript:/);
  });

  it('shows the hints compactly, the verdict and outcome words of the model, the case, a mark where expected differs', () => {
    const [create, , insert, upsert, hostile, keyed] = mdRows('server | tool').map(cells);
    expect(create!.slice(1, 9)).toEqual([
      'create\\_entities',
      'false/false/false',
      `${VERDICT.unprotected.mark} ${VERDICT.unprotected.label}`,
      '—',
      `${PROBE_OUTCOMES['retry-safe'].mark} retry-safe`,
      'retry-safe',
      '▽ understates: declares not idempotent, does not repeat its effect',
      '5 / 41',
    ]);
    expect(insert![1]).toBe('write\\_query case 1');
    expect(insert![2]).toBe('—/—/—');
    expect(upsert![1]).toBe('write\\_query case 2');
    expect(upsert![6]).toBe('**≠ retry-safe**');
    expect(insert![6]).toBe('repeated-effect');
    expect(hostile![2]).toBe('true/—/—');
    expect(hostile![3]).toBe(`${VERDICT['read-only'].mark} ${VERDICT['read-only'].label}`);
    expect(keyed![4]).toBe('$.request\\_id"&gt;&lt;script&gt;');
    expect(keyed![6]).toBe('—');
  });

  it('escapes HTML, table separators, newlines and control characters of server text', () => {
    expect(md).not.toMatch(/<script|<b>|<img|<\/td>/);
    expect(md).not.toContain('\u001b');
    expect(md).not.toContain('\u0007');
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt;\\|x\\\\u000a#&#8203; head\\\\u001b\\[31mred');
    // No line starts with a heading or a list that a server's newline would have made.
    expect(md.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '# Behaviour of MCP tools: the lost-response experiment',
      '## Servers',
      '## Experiments',
      '## Method and limits',
    ]);
  });

  it('has the method and limits', () => {
    const method = md.slice(md.indexOf('## Method and limits'));
    expect(method).toContain(
      '`idemscan probe --sandbox` (bubblewrap: a read-only system, an empty HOME, network loopback only)',
    );
    expect(method).toContain('re-issued with a new JSON-RPC id');
    expect(method).toContain('cannot tell a deduplication from a true overwrite');
    expect(method).toContain('concurrent calls');
    expect(method).toContain('server versions other than the pinned one');
    expect(method).toContain('reading the server’s own source code');
    expect(method).toContain('Node v20.19.0');
  });
});

describe('the behaviour table in HTML', () => {
  it('is a standalone page of the index kind: one hashed style, no script, nothing fetched', () => {
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain("default-src 'none'");
    expect(page).not.toMatch(/<script|<link rel="stylesheet"|src="http|href="http/i);
    expect(page).toContain('<a href="behaviour.json">behaviour.json</a>');
  });

  it('escapes every string of the table: names, keys, reasons and errors', () => {
    for (const html of [page, section]) {
      expect(html).not.toMatch(/<script|<img|<b>|<\/td><\/tr><script/);
      expect(html).not.toContain('\u001b');
      expect(html).not.toContain('\u0007');
    }
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/<wbr>script&gt;');
    expect(page).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(page).toContain('\\u001b[31mred');
    expect(page).toContain('ENOENT: no such file &lt;/td&gt;&lt;/tr&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
    // A reason in a title attribute cannot end it.
    expect(page).toMatch(
      /<td title="&lt;img src=x onerror=alert\(2\)&gt; \| \\u001b\]0;title\\u0007\nsecond line @admin #1">/,
    );
  });

  it('has every server and every experiment, with its reason as a detail and the expected mark', () => {
    const tbody = (cls: string) => page.slice(page.indexOf(`<table class="${cls}">`)).split('</table>')[0]!;
    expect(tbody('servers-table').match(/<tr><th scope="row">/g)).toHaveLength(table.servers.length);
    const rows = tbody('behaviour').split('<tbody>')[1]!.match(/<tr>/g);
    expect(rows).toHaveLength(table.rows.length);
    expect(page.match(/<details><summary>why<\/summary>/g)).toHaveLength(table.rows.length);
    expect(page.match(/<td class="differs">≠ /g)).toHaveLength(2);
    expect(page).toContain('write_<wbr>query case 2');
    expect(page).toContain('UNIQUE constraint failed:<br>items.id');
    expect(page).toContain('<code>false/true/true</code>');
    expect(page).toContain('<th scope="row"><a href="memory/report.json">memory</a></th>');
    expect(page).toContain('<th scope="row">sqlite</th>');
    expect(page).not.toMatch(/passwd|javascript:/);
  });

  it('has the head, the agreement counts and the method and limits', () => {
    expect(page).toContain(HEAD);
    expect(page).toContain('<th scope="row">▽ understates</th><td class="n">2</td>');
    expect(page).toContain('<h2 id="method-h">Method and limits</h2>');
    expect(page).toContain('<code>idemscan probe --sandbox</code>');
  });

  it("the index's section: the head, the disagreements overstating first, and a link to the page", () => {
    expect(section.startsWith('<section id="behaviour"')).toBe(true);
    expect(section.endsWith('</section>')).toBe(true);
    expect(section).toContain(HEAD);
    expect(section).toContain('<a href="behaviour/behaviour.html">the whole table</a>');
    const listed = section.match(/<li><strong>[^<]+<\/strong>/g);
    expect(listed).toEqual([
      '<li><strong>△ overstates</strong>',
      '<li><strong>▽ understates</strong>',
      '<li><strong>▽ understates</strong>',
    ]);
  });

  it(`the index's section lists at most ${SECTION_ROWS} disagreements, counting the rest`, () => {
    const many = { ...table, rows: Array.from({ length: SECTION_ROWS + 5 }, () => table.rows[0]!) };
    const html = behaviourSection(many, 'b.html');
    expect(html.match(/<li>/g)).toHaveLength(SECTION_ROWS);
    expect(html).toContain('And 5 more on the table');
  });

  it("the index's section takes a server at a time, so a short list shows many servers", () => {
    const row = (server: string, tool: string) => ({
      ...table.rows[0]!,
      server,
      tool,
      agreement: 'understates' as const,
    });
    const rows = [row('a', 'a1'), row('a', 'a2'), row('a', 'a3'), row('b', 'b1'), row('c', 'c1'), row('b', 'b2')];
    const html = behaviourSection({ ...table, rows }, 'b.html');
    const tools = [...html.matchAll(/<code>(\w+)<\/code>/g)].map((m) => m[1]);
    expect(tools).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });
});
