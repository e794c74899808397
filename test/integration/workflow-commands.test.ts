/**
 * GitHub Actions reads a log line that starts with `::` (after whitespace) as a workflow command.
 * Server names, tool text, failure messages and skip reasons from a target file must never begin
 * a line of what idemscan prints (table, tools view, progress, errors) or writes line by line
 * (Markdown). Through the built CLI, on real fixture servers named that way.
 */
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guardLineStarts } from '../../src/cli/line-starts.js';
import { reporter } from '../../src/render/index.js';
import { noCommandLines, safeText } from '../../src/render/terminal.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every line that GitHub Actions would run as a command. */
const commandLines = (text: string) => text.split('\n').filter((l) => /^\s*::/.test(l));

const WORDS =
  'a description long enough to be wrapped on a narrow terminal ::warning file=x::wrapped-into-a-command and more words after it';

function run(args: string[], columns = '60') {
  return execa(process.execPath, [CLI, ...args], {
    reject: false,
    cwd: dir,
    env: { ...process.env, COLUMNS: columns, CI: 'true' },
    timeout: 60_000,
  });
}

describe('no output line starts a workflow command', () => {
  const list = path.join(dir, 'servers.json');
  writeFileSync(
    list,
    JSON.stringify({
      servers: [
        { name: '::error file=x::pwned', command: process.execPath, args: [FIXTURES.legacyStdio] },
        {
          name: '  ::add-mask::secret',
          command: process.execPath,
          args: [FIXTURES.hostileEcho, `--x=${WORDS}`, '::notice::arg'],
          env: { MODE: 'list' },
        },
        { name: '::stop-commands::tok', command: path.join(dir, 'no-such-command') },
        { name: '::group::skipped', command: 'x', skip: '::error::skip reason' },
      ],
    }),
  );

  it('scan: table, progress, skip and failure lines, Markdown; then report, and audit', async () => {
    const out = path.join(dir, 'out');
    const scan = await run([
      'scan',
      list,
      '--format',
      'json,md',
      '--out',
      out,
      '--timeout',
      '20000',
      '--probe-timeout',
      '500',
    ]);
    expect(scan.stdout).toContain('pwned'); // the servers are there, escaped
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    const report = await run([
      'report',
      path.join(out, 'report.json'),
      '--format',
      'table,tools,md',
      '--out',
      path.join(dir, 'again'),
    ]);
    const again = readFileSync(path.join(dir, 'again', 'report.md'), 'utf8');
    const quiet = await run(['scan', list, '-q', '--out', out, '--timeout', '20000', '--probe-timeout', '500']);
    const audit = await run(
      [
        'audit',
        '--name',
        '::error::audit',
        '--',
        process.execPath,
        FIXTURES.hostileEcho,
        `--x=${WORDS}`,
        '::debug::arg',
      ],
      '50',
    );
    for (const [what, text] of Object.entries({
      scanOut: scan.stdout,
      scanErr: scan.stderr,
      md,
      reportOut: report.stdout,
      again,
      quietErr: quiet.stderr,
      auditOut: audit.stdout,
      auditErr: audit.stderr,
    })) {
      expect(commandLines(text), what).toEqual([]);
    }
    expect(scan.stdout + scan.stderr).toContain('\\u003a:error file=x::pwned');
    expect(audit.stdout).toContain('\\u003a:error::audit');
  });
});

describe('noCommandLines', () => {
  it('escapes the first colon of each line that starts with `::`, after spaces, tabs or a carriage return', () => {
    expect(noCommandLines('::a\n  ::b\n\t::c\r\n\r::d\nx ::e\n:f')).toBe(
      '\\u003a:a\n  \\u003a:b\n\t\\u003a:c\r\n\r\\u003a:d\nx ::e\n:f',
    );
    expect(noCommandLines('')).toBe('');
  });

  it('keeps texts apart: a literal \\u003a is doubled by the escaper first', () => {
    expect(noCommandLines(safeText('::x'))).not.toBe(noCommandLines(safeText('\\u003a:x')));
  });

  it('leaves the first line of text that continues a line (lineStart false) as it is', () => {
    expect(noCommandLines('::a\n::b', false)).toBe('::a\n\\u003a:b');
    expect(noCommandLines('x ::a', false)).toBe('x ::a');
  });
});

describe('a `::` inside a line', () => {
  const report = reportOf([okServer('::srv', [{ name: '::tool', description: 'does ::this, then\n::error::that' }])]);

  it('is unchanged in a Markdown or HTML cell and in the escaper; a line the text itself starts is still escaped', async () => {
    expect(safeText('::x')).toBe('::x');
    for (const format of ['md', 'html']) {
      const out = (await reporter(format)).render(report);
      expect(out, format).toContain('::srv');
      expect(out, format).toContain('::tool');
      // The Markdown shows no descriptions; in the HTML the description's own second line starts with `::`.
      if (format === 'html')
        expect([out.includes('does ::this'), out.includes('\n\\u003a:error::that')]).toEqual([true, true]);
      expect(out, format).not.toMatch(/\\u003a:(?:srv|tool)/);
      expect(commandLines(out), format).toEqual([]);
    }
  });

  it("is unchanged on the CLI's streams, followed across writes: only what starts a line is escaped", () => {
    const written: string[] = [];
    const stream = { write: (chunk: string) => (written.push(chunk), true) } as unknown as NodeJS.WriteStream;
    guardLineStarts(stream);
    for (const chunk of ['  ', '::a', ' then ::b\n', '::c\n\t', '::d ', '::e']) stream.write(chunk);
    expect(written.join('')).toBe('  \\u003a:a then ::b\n\\u003a:c\n\t\\u003a:d ::e');
  });
});
