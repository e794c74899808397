/** The HTML reporter's escaping, without a browser (the browser tests check the page as a whole). */
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/render/html/page.js';
import { json, text, visible } from '../../src/render/html/escape.js';

describe('text()', () => {
  it('escapes the five HTML specials, for content and quoted attributes alike', () => {
    expect(text(`<a href="x" onclick='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });
  it('shows control, zero-width and bidi characters as visible escapes, keeping tab and newline', () => {
    expect(visible('a\u001b[31m\rb\u202e\u200b\u2028c\td\ne')).toBe('a\\u001b[31m\\u000db\\u202e\\u200b\\u2028c\td\ne');
  });
  it('shows every invisible lookalike of a name, so no two names read the same', () => {
    const names = [
      'get_balance',
      ...['\u200b', '\u2060', '\u2066', '\ufeff', '\u00ad', '\u180e', '\u034f', '\u{e0041}', '\ufe0f'].map(
        (c) => `get_${c}balance`,
      ),
    ];
    const shown = names.map((n) => text(n));
    expect(new Set(shown).size).toBe(names.length);
    for (const s of shown) expect(s).not.toMatch(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u);
  });
  it('cuts long values after escaping visibility, before HTML escaping', () => {
    expect(text('<'.repeat(10), 4)).toBe('&lt;&lt;&lt;…');
    expect(text(undefined)).toBe('');
    expect(text(12)).toBe('12');
  });
});

describe('json()', () => {
  const nasty = {
    name: '</script><script>alert(1)</script>',
    c: '<!--',
    amp: '&',
    ls: '\u2028\u2029',
    s: '</SCRIPT >',
  };
  it('can hold nothing that ends or re-modes a script element', () => {
    const out = json(nasty);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(out).toContain('\\u003c/script\\u003e');
  });
  it('parses back to the same value', () => {
    expect(JSON.parse(json(nasty))).toEqual(nasty);
  });
});

describe('Content-Security-Policy', () => {
  it('allows only hashed script and style, no inline attributes or remote anything', () => {
    expect(CONTENT_SECURITY_POLICY).toMatch(
      /^default-src 'none'; script-src 'sha256-[^' ]+'; style-src 'sha256-[^' ]+'; img-src data:/,
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|\*/);
  });
});
