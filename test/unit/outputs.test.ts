/**
 * What the reporters print of server text: invisible characters, GitHub autolinks, SARIF embedded
 * links; the stderr tail; and a hint too deep for the report that is still reported as malformed.
 */
import { describe, expect, it } from 'vitest';
import { TailBuffer } from '../../src/connect/tail.js';
import { mdText } from '../../src/render/markdown-text.js';
import { text as htmlText } from '../../src/render/html/escape.js';
import { markdownReporter } from '../../src/render/markdown.js';
import { toSarif } from '../../src/render/sarif.js';
import { classifyServer } from '../../src/classify/index.js';
import { safeText } from '../../src/render/terminal.js';
import { okServer, reportOf } from '../helpers/reports.js';

/** 17 tools that all read `get_balance` on a screen that shows invisible characters as nothing. */
const LOOKALIKES = [
  'get_balance',
  ...[
    '\u200b',
    '\u200c',
    '\u200d',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202e',
    '\u2060',
    '\u2064',
    '\u2066',
    '\u2069',
    '\ufeff',
    '\u00ad',
    '\u180e',
    '\u034f',
    '\u{e0041}',
  ].map((c) => `get_${c}balance`),
];

/** What a reader sees: the text with every invisible character removed (as a screen shows it). */
const seen = (s: string) => s.replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '');

describe('invisible characters', () => {
  for (const [where, render] of [
    ['terminal', (s: string) => safeText(s, 200)],
    ['markdown', (s: string) => mdText(s, 200)],
    ['html', (s: string) => htmlText(s)],
  ] as const) {
    it(`${where}: 17 lookalike names render as 17 different visible texts`, () => {
      const shown = LOOKALIKES.map(render);
      expect(new Set(shown.map(seen)).size).toBe(LOOKALIKES.length);
      for (const s of shown) expect(s).toBe(seen(s));
    });
  }

  it('shows lone surrogates, odd spaces and tag characters, and keeps emoji and plain space', () => {
    expect(safeText('a\ud800b\udc00 c\u00a0d')).toBe('a\\ud800b\\udc00 c\\u00a0d');
    expect(safeText('flag\u{e0067}\u{e007f}')).toBe('flag\\u{e0067}\\u{e007f}');
    expect(safeText('ok \u{1f600}')).toBe('ok \u{1f600}');
  });

  it('doubles a backslash that could start an escape, so a literal "\\u200b" differs from the character', () => {
    expect(safeText('a\\u200bb')).not.toBe(safeText('a\u200bb'));
    expect(safeText('a\\\u200bb')).not.toBe(safeText('a\\u200bb'));
    expect(safeText('C:\\path')).toBe('C:\\path');
  });

  it('never cuts a surrogate pair in half when bounding', () => {
    expect(safeText(`ab\u{1f600}cd`, 4)).toBe('ab…');
  });
});

describe('markdown autolinks', () => {
  it('breaks URLs, www, mentions, emails, issue references and shortcodes with a zero-width space', () => {
    expect(mdText('https://evil.example/x')).toBe('https:&#8203;//evil.example/x');
    expect(mdText('www.evil.example')).toBe('www&#8203;.evil.example');
    expect(mdText('@octocat')).toBe('@&#8203;octocat');
    expect(mdText('a@b.example')).toBe('a@&#8203;b.example');
    expect(mdText('#1 owner/repo#2')).toBe('#&#8203;1 owner/repo#&#8203;2');
    expect(mdText(':rocket:')).toBe(':&#8203;rocket:');
    expect(mdText('2026-01-01T00:00:00.000Z, HTTP 500: x')).toBe('2026-01-01T00:00:00.000Z, HTTP 500: x');
  });

  it('shows an npm package name as one code span, with no @ set apart', () => {
    expect(mdText('@modelcontextprotocol/server-x')).toBe('`@modelcontextprotocol/server-x`');
    expect(mdText('it depends on @a-b/common@^0.34.0, which fails.')).toBe(
      'it depends on `@a-b/common@^0.34.0`, which fails.',
    );
    expect(mdText('a dependency, @jsr/tmpl__core, is missing')).toBe('a dependency, `@jsr/tmpl__core`, is missing');
    // Not a package: an address, a mention, a scope alone.
    expect(mdText('git@github.com/o/r.git')).toBe('git@&#8203;github.com/o/r.git');
    expect(mdText('@octocat/')).toBe('@&#8203;octocat/');
    expect(mdText('x|@a/b')).toBe('x\\|`@a/b`');
  });

  it('in a whole report: no tool name can form a link, a mention or an issue reference', () => {
    const md = markdownReporter.render(reportOf([okServer('srv @admin', [{ name: 'https://evil.example/@x#1' }])]));
    expect(md).not.toMatch(/https:\/\/evil|@admin|#1/);
    expect(md).not.toContain('`@`');
    expect(md).toContain('https:&#8203;//evil.example/@&#8203;x#&#8203;1');
  });
});

describe('sarif message text', () => {
  it('backslashes brackets (no embedded links) and shows invisible characters', () => {
    const log = toSarif(reportOf([okServer('srv', [{ name: '[click](https://evil.example)\u200b' }])]));
    const texts = log.runs[0]!.results!.map((r) => r.message.text!);
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) {
      expect(t).toContain('\\[click\\](https://evil.example)\\u200b');
      expect(t).not.toMatch(/(?<!\\)\[/);
    }
  });
});

describe('stderr tail', () => {
  it('keeps the last line after a long one, cut on a character boundary, with a marker', () => {
    const tail = new TailBuffer(100);
    tail.push(Buffer.from('starting\n'));
    tail.push(Buffer.from(`${'é'.repeat(300)} fatal: out of memory\n`));
    const text = tail.text();
    expect(text.startsWith('…')).toBe(true);
    expect(text).toContain('fatal: out of memory');
    expect(text).not.toContain('\ufffd');
  });

  it('drops the cut first line when whole lines follow it', () => {
    const tail = new TailBuffer(20);
    tail.push(Buffer.from(`${'x'.repeat(50)}\nlast\n`));
    expect(tail.text()).toBe('…\nlast\n');
  });

  it('is the text as written when nothing was cut', () => {
    const tail = new TailBuffer(100);
    tail.push(Buffer.from('a\nb'));
    expect(tail.text()).toBe('a\nb');
  });
});

describe('a hint too deep for the report', () => {
  it('is reported as malformed, not as missing', () => {
    let deep: unknown = true;
    for (let i = 0; i < 2_000; i++) deep = { a: deep };
    const [tool] = classifyServer({
      name: 's',
      rawTools: [{ name: 'write_it', annotations: { readOnlyHint: deep } }],
    }).tools;
    const rules = tool!.findings.map((f) => f.rule);
    expect(rules).toContain('malformed-hint');
    expect(rules).not.toContain('missing-annotations');
    expect(tool!.findings.find((f) => f.rule === 'malformed-hint')!.message).toMatch(
      /^readOnlyHint is an object, not a boolean/,
    );
  });
});
