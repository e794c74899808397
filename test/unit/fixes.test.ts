/**
 * Fixes in findings (issue 18, item 5): each finding whose remedy is an annotation carries the
 * exact hints to add, the terminal and Markdown show them as a snippet, and suppressed findings
 * are dimmed on a terminal.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyServer } from '../../src/classify/index.js';
import { describesOverwrite } from '../../src/classify/rules/fixes.js';
import { markdownReporter } from '../../src/render/markdown.js';
import { toolsReporter } from '../../src/render/tools.js';
import type { Finding } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';

const schema = { type: 'object' };
const fixesOf = (raw: Record<string, unknown>): [string, Finding['fix']][] =>
  classifyServer({ name: 's', rawTools: [{ inputSchema: schema, ...raw }] }).tools[0]!.findings.map((f) => [
    f.rule,
    f.fix,
  ]);

describe('fix', () => {
  it('a read-named tool without hints: readOnlyHint true', () => {
    expect(fixesOf({ name: 'get_issue' })).toEqual([
      ['read-name-not-read-only', { annotations: { readOnlyHint: true } }],
    ]);
  });

  it('a tool whose description says it overwrites: a write, idempotent, destructive in the spec sense', () => {
    expect(fixesOf({ name: 'save_file', description: 'Overwrites the file at path with content.' })).toEqual([
      ['missing-annotations', { annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true } }],
    ]);
    expect(fixesOf({ name: 'upsert_row', description: 'Upserts a row.', annotations: { readOnlyHint: true } })).toEqual(
      [['write-name-read-only', { annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true } }]],
    );
  });

  it('no fix where the evidence does not decide it', () => {
    expect(fixesOf({ name: 'create_widget', description: 'Creates a widget.' })).toEqual([
      ['missing-annotations', undefined],
    ]);
    expect(fixesOf({ name: 'bad', annotations: { readOnlyHint: 'yes' } })).toEqual([['malformed-hint', undefined]]);
  });

  it('a hint sent as the string "true" or "false": the boolean meant; idempotentHint false on a read: true', () => {
    expect(fixesOf({ name: 'x', annotations: { readOnlyHint: 'true' } })).toEqual([
      ['malformed-hint', { annotations: { readOnlyHint: true } }],
    ]);
    expect(fixesOf({ name: 'stats', annotations: { readOnlyHint: true, idempotentHint: false } })).toEqual([
      ['contradictory-hints', { annotations: { idempotentHint: true } }],
    ]);
  });

  it('reads "overwrite" as a word only', () => {
    expect(describesOverwrite('OVERWRITES it')).toBe(true);
    expect(describesOverwrite('overwriter of nothing')).toBe(false);
    expect(describesOverwrite(undefined)).toBe(false);
  });
});

describe('snippets', () => {
  const report = reportOf([
    okServer('docs', [
      { name: 'get_page', inputSchema: schema },
      { name: 'save_page', description: 'Overwrites a page.', inputSchema: schema },
    ]),
  ]);

  it('terminal: the hints to add under the finding; Markdown: a fixes list under the server', () => {
    const text = toolsReporter.render(report);
    expect(text).toContain('get_page: named like a read');
    expect(text).toContain('           fix: add to annotations {"readOnlyHint": true}\n');
    expect(text).toContain(
      '           fix: add to annotations {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true}\n',
    );
    const md = markdownReporter.render(report);
    expect(md).toContain(
      'Fixes (add to the tool\'s annotations):\n\n- get\\_page (read-name-not-read-only): `{"readOnlyHint": true}`\n- save\\_page (missing-annotations): `{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true}`',
    );
  });

  it('a report file cannot put anything but hints and booleans into a snippet', () => {
    const f = report.servers[0]!.tools[0]!.findings[0]!;
    f.fix = { annotations: { readOnlyHint: true, '`evil`': true } as Record<string, boolean> };
    expect(markdownReporter.render(report)).toContain('`{"readOnlyHint": true}`');
    expect(markdownReporter.render(report)).not.toContain('evil');
  });

  it('suppressed findings are dimmed, line by line, when the terminal asks for it', () => {
    report.servers[0]!.tools[0]!.findings[0]!.suppressed = { reason: 'reviewed' };
    const dim = toolsReporter
      .render(report, { dim: true })
      .split('\n')
      .filter((l) => l.includes('\x1b[2m'));
    expect(dim[0]).toBe('\x1b[2m  warning  read-name-not-read-only  (suppressed)\x1b[22m');
    expect(dim).toContain('\x1b[2m           suppressed: reviewed\x1b[22m');
    expect(toolsReporter.render(report)).not.toContain('\x1b[');
  });
});

describe('rule pages', () => {
  it.each([
    'read-name-not-read-only',
    'missing-annotations',
    'write-name-read-only',
    'contradictory-hints',
    'malformed-hint',
  ])('%s shows its fix in the TypeScript and Python SDKs', (rule) => {
    const page = readFileSync(new URL(`../../docs/rules/${rule}.md`, import.meta.url), 'utf8');
    expect(page).toContain('## The fix, in the SDKs');
    expect(page).toContain("server.registerTool('");
    expect(page).toMatch(/ {2}annotations: \{ readOnlyHint: (?:true|false)/);
    expect(page).toMatch(/@mcp\.tool\(annotations=ToolAnnotations\(readOnlyHint=(?:True|False)/);
  });
});
