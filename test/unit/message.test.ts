/** The one message template (render/message.ts): each value escaped and cut to its named cap, once. */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/input-error.js';
import { LIMITS } from '../../src/model/limits.js';
import { ReportFileError } from '../../src/compare/read.js';
import { ScanInputError } from '../../src/app/scan/scan-input.js';
import { TargetFileError } from '../../src/targets/types.js';
import { inputErrorText, joinShown, msg, show } from '../../src/render/message.js';

describe('msg', () => {
  it('escapes each value, never its own text', () => {
    expect(msg`a\tb ${'x\u001b[2Jy'} ${show.name('n\u202e')}`.text).toBe('a\tb x\\u001b[2Jy n\\u202e');
  });

  it('cuts each value to the cap of its kind, a plain string to the message cap', () => {
    const long = 'x'.repeat(5_000);
    for (const [kind, value] of [
      ['name', show.name(long)],
      ['path', show.path(long)],
      ['url', show.url(long)],
      ['reason', show.reason(long)],
      ['message', long],
    ] as const) {
      const cap = LIMITS.shown[kind];
      expect(msg`${value}`.text.length, kind).toBeLessThanOrEqual(cap);
      expect(msg`${value}`.text.length, kind).toBeGreaterThan(cap - 5);
    }
  });

  it('takes text it made as it is: escaped once', () => {
    const inner = msg`${'\u001b'}`;
    expect(msg`[${inner}]`.text).toBe('[\\u001b]');
    expect(joinShown([inner, inner], ', ').text).toBe('\\u001b, \\u001b');
    expect(msg`${show.quoted('a "b"\u0007', 'name')}`.text).toBe(JSON.stringify('a "b"\\u0007'));
  });
});

describe('inputErrorText', () => {
  it('shows the field, the file and the detail, each escaped and cut', () => {
    const file = `evil\u001b[31m${'d/'.repeat(400)}.json`;
    const text = inputErrorText(new ReportFileError(file, 'invalid lock file: x\r', '--baseline')).text;
    expect(text.startsWith('--baseline evil\\u001b[31md/')).toBe(true);
    expect(text.endsWith(': invalid lock file: x\\u000d')).toBe(true);
    expect(text.length).toBeLessThan(LIMITS.shown.path + 40);
  });

  it('shows a detail the template made as it is, and a library error as its message reads', () => {
    expect(inputErrorText(new InputError(msg`unknown "${show.name('\u001b')}"`)).text).toBe('unknown "\\u001b"');
    const scan = new ScanInputError('target', 'targets[0].name', 'required');
    expect(inputErrorText(scan).text).toBe(scan.message);
    const target = new TargetFileError('list.json', 'not valid JSON', 'syntax');
    expect(inputErrorText(target).text).toBe('list.json: not valid JSON');
    expect(target).toBeInstanceOf(InputError);
  });
});
