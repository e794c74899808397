/** The Action's summary lines (render/gate-summary.ts): from the report's gate, its failures and the step's stderr, escaped. */
import { describe, expect, it } from 'vitest';
import { actionSummary, errorLine, gateLines } from '../../src/render/gate-summary.js';
import type { Gate } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';

const gate = (over: Partial<Gate>): Gate => ({
  failOn: ['error', 'unprotected'],
  verdicts: ['unprotected'],
  matched: 0,
  matches: [],
  ...over,
});

describe('gateLines', () => {
  it('one line per tool: server, tool, verdict and rules; the server alone for its own findings', () => {
    const text = gateLines(
      gate({
        matched: 3,
        matches: [
          { server: 'shop', tool: 'create_order', verdict: 'unprotected' },
          {
            server: 'shop',
            tool: 'bad_hint',
            verdict: 'unprotected',
            rules: ['malformed-hint', 'missing-annotations'],
          },
          { server: 'shop', rules: ['duplicate-tool-name'] },
        ],
      }),
    );
    expect(text).toBe(
      'What the gate matched (3):\n\n' +
        '- shop / create\\_order: verdict unprotected\n' +
        '- shop / bad\\_hint: verdict unprotected; rules malformed-hint, missing-annotations\n' +
        '- shop (the server): rule duplicate-tool-name\n',
    );
  });

  it('says how many more than the report lists, the drift, and the accepted tools', () => {
    const text = gateLines(
      gate({
        matched: 57,
        matches: Array.from({ length: 50 }, (_, i) => ({
          server: 's',
          tool: `t${i}`,
          verdict: 'unprotected' as const,
        })),
        drift: true,
        accepted: 2,
      }),
      '.idemscan-suppress.json',
    );
    expect(text.split('\n').filter((l) => l.startsWith('- s / t'))).toHaveLength(50);
    expect(text).toContain('What the gate matched (58):');
    expect(text).toContain('- +7 more (the JSON report has every finding and verdict)\n');
    expect(text).toContain('- drift since the `--baseline` lock file');
    expect(text).toContain('\n2 tools accepted by .idemscan-suppress.json (a reviewed verdict, not counted).\n');
    // A pass with accepted tools says so, and nothing else.
    expect(gateLines(gate({ accepted: 1 }))).toBe(
      '1 tool accepted by a suppression (a reviewed verdict, not counted).\n',
    );
    expect(gateLines(gate({}))).toBe('');
  });

  it('escapes server text: no link, mention, HTML or workflow command, and bounds what a hostile report lists', () => {
    const hostile = gateLines(
      gate({
        matched: 1,
        matches: [
          { server: '<img src=x>@admin', tool: '[x](https://evil.example)\n::error::x', verdict: 'unprotected' },
        ],
      }),
    );
    expect(hostile).not.toMatch(/<img|(?<!\\)\]\(|^::/m);
    expect(hostile.split('\n')).toHaveLength(4); // the newline in the name is shown, not kept
    expect(hostile).toContain('&lt;img src=x&gt;@&#8203;admin');
    // `matched` smaller than the list, or a list longer than the bound: never more lines than either.
    const many = Array.from({ length: 80 }, (_, i) => ({ server: 's', tool: `t${i}` }));
    expect(gateLines(gate({ matched: 2, matches: many })).match(/^- s \/ /gm)).toHaveLength(2);
    expect(gateLines(gate({ matched: 80, matches: many })).match(/^- s \/ /gm)).toHaveLength(50);
  });
});

describe('errorLine', () => {
  it("is the last idemscan: or commander error: line, with the lines that continue it, not commander's see:", () => {
    expect(
      errorLine(
        '[1/1] ok\nidemscan: wrote o/report.json\nidemscan: --tools tools.json: cannot read: no such file (ENOENT)\n',
      ),
    ).toBe('idemscan: --tools tools.json: cannot read: no such file (ENOENT)');
    expect(errorLine("error: unknown option '--bogus'\nsee: idemscan audit --help\n")).toBe(
      "error: unknown option '--bogus'",
    );
    expect(
      errorLine('idemscan: bad targets file t.json:\n  servers[0].command: required\n  servers[1]: x\nother'),
    ).toBe('idemscan: bad targets file t.json:\n> servers\\[0\\].command: required\n> servers\\[1\\]: x');
    expect(errorLine('nothing here\n')).toBeUndefined();
  });
});

describe('actionSummary', () => {
  it('exit 2: the error line; exit 3: why each server failed; 0 and 1: the gate', () => {
    expect(actionSummary({ code: 2, stderr: 'idemscan: the tools file tools.json does not exist\n' })).toBe(
      '> idemscan: the tools file tools.json does not exist\n\n',
    );
    expect(actionSummary({ code: 2, stderr: '' })).toContain('no error line was found');
    const failed = okServer('shop', []);
    const report = reportOf([
      { ...failed, status: 'failed', failure: { kind: 'spawn', message: 'cannot start "nope": ENOENT' } },
    ]);
    expect(actionSummary({ code: 3, report, stderr: '[1/1] failed shop (0.0 s): spawn\n' })).toBe(
      '- shop: spawn: cannot start "nope": ENOENT\n\n',
    );
    const matched = {
      ...report,
      gate: gate({ matched: 1, matches: [{ server: 'shop', tool: 'x', verdict: 'unprotected' }] }),
    };
    expect(actionSummary({ code: 1, report: matched, stderr: '' })).toContain('- shop / x: verdict unprotected\n');
    expect(actionSummary({ code: 0, report, stderr: '' })).toBe('');
  });
});
