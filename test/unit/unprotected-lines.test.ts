/** Under the scan table: the servers with the most unprotected tools, by name (issue 20). */
import { describe, expect, it } from 'vitest';
import { tableReporter } from '../../src/render/table.js';
import { displayWidth } from '../../src/render/width.js';
import { okServer, reportOf } from '../helpers/reports.js';

const writes = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}_${i + 1}`, annotations: { readOnlyHint: false } }));
const reads = [{ name: 'get', annotations: { readOnlyHint: true } }];

const servers = [
  okServer('small', [...reads, ...writes('small', 1)]),
  okServer('big', [...reads, ...writes('send', 30)]),
  okServer('evil\u001b[2Jname', [{ name: 'drop\u001b]8;;http://x\u0007table' }, { name: 'wipe\rall' }]),
  okServer('mid', writes('mid', 4)),
  okServer('safe', reads),
  okServer('six', writes('six', 2)),
  okServer('seven', writes('seven', 3)),
];
const report = reportOf(servers);
const below = (text: string) => text.slice(text.indexOf('Unprotected tools'));

describe('the table names the unprotected tools', () => {
  it('lists the 5 servers with the most, worst first, and points to the tools view', () => {
    const text = below(
      tableReporter.render(report, { width: 100, toolsCommand: 'idemscan report output/report.json --format tools' }),
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('Unprotected tools, the 5 servers with the most (of 6):');
    expect(lines.slice(1, 6).map((l) => l.trim().split(' ')[0])).toEqual([
      'big',
      'mid',
      'seven',
      'evil\\u001b[2Jname',
      'six',
    ]);
    expect(lines[1]).toMatch(/^ {2}big \(30\): send_1, send_2, .*, \+\d+ more$/);
    expect(lines[2]).toBe('  mid (4): mid_1, mid_2, mid_3, mid_4');
    expect(lines[6]).toBe(
      'Every tool with its verdict and evidence: idemscan report output/report.json --format tools',
    );
    expect(text).not.toContain('small_1'); // the sixth server is left to the tools view
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(100);
  });

  it('escapes tool and server names and fits narrow terminals', () => {
    for (const width of [40, 60, 80]) {
      const text = below(tableReporter.render(report, { width }));
      // eslint-disable-next-line no-control-regex
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      expect(text).toContain('\\u001b');
      const lines = text.trimEnd().split('\n');
      // The command is never cut inside a word: on lines of its own, broken at its spaces with shell
      // continuations, every line within the width; pasted back together it is the whole command.
      const start = lines.findIndex((l) => l.startsWith('Every tool with'));
      const command = lines.slice(start + 1).map((l) => l.trim().replace(/ \\$/, ''));
      expect(command.join(' ')).toBe('idemscan report <report.json> --format tools');
      for (const l of lines) expect(displayWidth(l), l).toBeLessThanOrEqual(width);
    }
    expect(below(tableReporter.render(report, { width: 200 }))).toContain(
      'drop\\u001b]8;;http://x\\u0007table, wipe\\u000dall',
    );
  });

  it('on a pipe at most 10 names a server, and a hint when no report file is known', () => {
    const text = below(tableReporter.render(report));
    expect(text).toContain('send_10, +20 more');
    expect(text).toContain(
      'Every tool with its verdict and evidence (write the report with --format json): idemscan report <report.json> --format tools',
    );
  });

  it('says nothing when no tool is unprotected', () => {
    expect(tableReporter.render(reportOf([okServer('safe', reads)]))).not.toContain('Unprotected tools');
  });
});
