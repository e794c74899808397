/** Long failure reasons, probe results and `where` paths wrap to the terminal's width, bounded, never cut silently. */
import { describe, expect, it } from 'vitest';
import { summaryTable, tableReporter } from '../../src/render/table.js';
import { toolsReporter } from '../../src/render/tools.js';
import { probeTerminalLines } from '../../src/render/probe-view.js';
import { displayWidth, WRAP_LINES, wrapBounded } from '../../src/render/width.js';
import { fileLines, shortPath, skippedLines } from '../../src/cli/where-lines.js';
import { countProbes } from '../../src/model/probe-outcomes.js';
import type { ToolProbe } from '../../src/model/probe-schema.js';
import type { ServerReport } from '../../src/model/schema.js';
import type { FoundFile } from '../../src/app/discover/discover.js';
import { okServer, reportOf, serverReport, toolReport } from '../helpers/reports.js';

const ADVICE = 'it was still starting: try --timeout 60000';
const LONG = `no answer within 30 s from the server, which printed its banner and then went quiet; ${ADVICE}`;

const failedServer = (message: string): ServerReport => ({
  ...okServer('slow-server', []),
  status: 'failed',
  failure: { kind: 'timeout', message, stderr: '' },
});

const within = (lines: string[], width: number) => {
  for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
};
/** The words of wrapped lines, joined again. */
const words = (lines: string[]) => lines.map((l) => l.trim()).join(' ');

describe('wrapBounded', () => {
  it('wraps with a hanging indent and keeps every word', () => {
    const lines = wrapBounded(LONG, 40, '  ', '    ');
    expect(lines.length).toBeGreaterThan(2);
    within(lines, 40);
    expect(lines[0]!.startsWith('  no answer')).toBe(true);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {4}\S/);
    expect(words(lines)).toBe(LONG);
  });

  it('stops after the bound with an ellipsis, within the width', () => {
    const lines = wrapBounded('word '.repeat(10_000), 30, '', '  ', 3);
    expect(lines).toHaveLength(3);
    within(lines, 30);
    expect(lines[2]!.endsWith('…')).toBe(true);
    expect(wrapBounded('word '.repeat(10_000), 30)).toHaveLength(WRAP_LINES);
  });

  it('is one line when the width is unbounded (a pipe)', () => {
    expect(wrapBounded(LONG, Infinity, '  ')).toEqual([`  ${LONG}`]);
  });
});

describe("a failed server's reason", () => {
  it('wraps under its row in the scan table at 80 columns, the advice at the end kept', () => {
    const r = reportOf([okServer('fine', [{ name: 'get', annotations: { readOnlyHint: true } }]), failedServer(LONG)]);
    const lines = summaryTable(r.servers, r.summary, 80).lines;
    within(lines, 80);
    const at = lines.findIndex((l) => l.startsWith('slow-server'));
    const reason = lines.slice(
      at + 1,
      lines.findIndex((l, i) => i > at && !l.startsWith('    ')),
    );
    expect(reason.length).toBeGreaterThan(1);
    expect(reason[0]!.startsWith('    timeout: no answer')).toBe(true);
    for (const l of reason.slice(1)) expect(l).toMatch(/^ {8}\S/);
    expect(words(reason)).toBe(`timeout: ${LONG}`);
    expect(words(reason)).toContain(ADVICE);
  });

  it('wraps in `report --format tools` at 80 columns', () => {
    const text = toolsReporter.render(reportOf([failedServer(LONG)]), { width: 80 });
    const lines = text.trimEnd().split('\n');
    within(lines, 80);
    expect(lines[1]!.startsWith('  failed: timeout: no answer')).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    expect(words(lines.slice(1))).toBe(`failed: timeout: ${LONG}`);
  });

  it('stays escaped and bounded when it is a megabyte of hostile text', () => {
    const hostile = `\u001b[2J${'spam '.repeat(200_000)}`;
    for (const text of [
      tableReporter.render(reportOf([failedServer(hostile)]), { width: 80 }),
      toolsReporter.render(reportOf([failedServer(hostile)]), { width: 80 }),
    ]) {
      expect(text).not.toContain('\u001b');
      expect(text).toContain('\\u001b[2J');
      const reason = text.split('\n').filter((l) => l.includes('spam'));
      expect(reason.length).toBeLessThanOrEqual(WRAP_LINES);
      within(reason, 80);
    }
  });
});

describe('probe results', () => {
  it('wrap to the width given, continuations indented under their row, every word kept', () => {
    const reason = `call (write_file) answered isError: true (${'the path is outside the allowed directories '.repeat(3)})`;
    const probe: ToolProbe = {
      outcome: 'failed',
      key: null,
      evidence: { reason, calls: [], requests: 2, durationMs: 12 },
    };
    const report = reportOf([serverReport([toolReport({ name: 'write_file', probe })])]);
    report.summary.probe = countProbes(report.servers[0]!.tools);
    const lines = probeTerminalLines(report, 60).map((l) => l.replace(/\n$/, ''));
    within(lines, 60);
    const row = lines.findIndex((l) => l.includes('write_file: failed'));
    const reasonLines = lines.slice(row + 1).filter((l) => l.startsWith('      '));
    expect(reasonLines.length).toBeGreaterThan(2);
    expect(reasonLines[0]).toMatch(/^ {6}call/);
    for (const l of reasonLines.slice(1)) expect(l).toMatch(/^ {8}\S/);
    expect(words(reasonLines)).toBe(reason.replace(/ +/g, ' ').trim());
    // Unbounded (a pipe): the reason on one line, as before.
    expect(probeTerminalLines(report).join('')).toContain(`      ${reason}\n`);
  });
});

describe('idemscan where', () => {
  const home = '/home/someone-with-a-long-name/workspace';
  const cwd = `${home}/projects/a-rather-long-project-directory-name`;
  const file = (over: Partial<FoundFile>): FoundFile => ({
    client: 'Cursor',
    scope: 'user',
    file: `${home}/.cursor/mcp.json`,
    servers: 2,
    skipped: 1,
    projectServers: 0,
    ...over,
  });

  it('shows user files under ~/ and project files as ./ of the folder, absolute elsewhere', () => {
    expect(shortPath(`${home}/.cursor/mcp.json`, 'user', home, cwd)).toBe('~/.cursor/mcp.json');
    expect(shortPath(`${cwd}/.cursor/mcp.json`, 'project', home, cwd)).toBe('./.cursor/mcp.json');
    expect(shortPath('/etc/mcp/config.json', 'user', home, cwd)).toBe('/etc/mcp/config.json');
    // Another user's folder that merely starts like HOME is not under it.
    expect(shortPath(`${home}-other/x.json`, 'user', home, cwd)).toBe(`${home}-other/x.json`);
  });

  it('continues the facts under the path past 80 columns, and a path is never broken or cut', () => {
    const long = `/opt/${'deeply-nested-directory/'.repeat(4)}mcp.json`;
    const project = file({ scope: 'project', file: `${cwd}/.cursor/mcp.json`, projectServers: 2 });
    const lines = fileLines(project, 80, home, cwd);
    within(lines, 80);
    expect(lines).toEqual([
      'Cursor             project ./.cursor/mcp.json  2 servers, 1 skipped,',
      `${' '.repeat(27)}project-scoped: scanned only with --project-configs`,
    ]);
    const far = fileLines(file({ file: long }), 80, home, cwd);
    // Whole, on a line of its own, even though wider than 80; the facts under the path column.
    expect(far).toEqual(['Cursor             user', `    ${long}`, `${' '.repeat(27)}2 servers, 1 skipped`]);
    expect(fileLines(file({}), 80, home, cwd)).toEqual([
      'Cursor             user    ~/.cursor/mcp.json  2 servers, 1 skipped',
    ]);
    expect(fileLines(file({ file: long }), Infinity, home, cwd)).toEqual([
      `Cursor             user    ${long}  2 servers, 1 skipped`,
    ]);
  });

  it("wraps a skipped entry's reason with a hanging indent", () => {
    const f = file({});
    const reason = 'mcpServers.bad: exactly one of "command" or "url"/"serverUrl"/"httpUrl" is required';
    const lines = skippedLines(f, [{ name: 'bad', source: f.file, reason }], 60);
    within(lines, 60);
    expect(lines.length).toBe(2);
    expect(lines[1]).toMatch(/^ {6}\S/);
    expect(words(lines)).toBe(`skipped bad: ${reason}`);
  });
});
