/** The probe's second-round outcomes and counts: reissue-refused, observers counted apart, the words shown. */
import { describe, expect, it } from 'vitest';
import { countProbes, noteObservers } from '../../src/model/probe-outcomes.js';
import type { SentCall, ToolProbe } from '../../src/model/probe-schema.js';
import { judge } from '../../src/probe/outcome.js';
import { safeLines } from '../../src/render/terminal.js';
import { installAdvice } from '../../src/launch/npm.js';
import { probeMarkdown, probeSarifResults, probeTerminalLines } from '../../src/render/probe-view.js';
import { probeSection } from '../../src/render/html/probe.js';
import { reportOf, serverReport, toolReport } from '../helpers/reports.js';

const call = (step: string, compared: string, status: SentCall['status'] = 'ok', why?: string): SentCall => ({
  step,
  tool: step.startsWith('observe') ? 'look' : 't',
  ms: 1,
  status,
  compared,
  ...(why ? { why } : {}),
});
const refusedWith = (status: 'error' | 'tool-error', before: string, afterCall: string, afterReissue: string) => [
  call('observe-before', before),
  call('call', 'moved'),
  call('observe-after-call', afterCall),
  call('reissue', 'exists', status, `answered ${status === 'error' ? 'error -32602' : 'isError: true'} (exists)`),
  call('observe-after-reissue', afterReissue),
];

describe('judge: a re-issue answered with an error', () => {
  it('after an effect that did not repeat is reissue-refused, as a JSON-RPC error and as isError', () => {
    for (const status of ['error', 'tool-error'] as const) {
      const j = judge(refusedWith(status, '0', '1', '1'), true);
      expect(j.outcome).toBe('reissue-refused');
      expect(j.reason).toContain('a retrying client is told the call failed');
      expect(j.reason).toContain('exists');
    }
  });
  it('is repeated-effect when the observer changed again, inconclusive when it never changed', () => {
    expect(judge(refusedWith('error', '0', '1', '2'), true).outcome).toBe('repeated-effect');
    expect(judge(refusedWith('tool-error', '0', '0', '0'), true)).toMatchObject({ outcome: 'inconclusive' });
  });
  it('failed keeps "nothing was learned": the call, an observer, or a re-issue never answered', () => {
    const steps = refusedWith('error', '0', '1', '1');
    const observerSilent = steps.map((c) =>
      c.step === 'observe-after-reissue' ? { ...c, status: 'no-answer' as const } : c,
    );
    expect(judge(observerSilent, true).outcome).toBe('failed');
    // An observer's error answer is an observation (i29-plans), compared by its text like any other.
    const observerErred = steps.map((c) =>
      c.step === 'observe-after-reissue' ? { ...c, status: 'error' as const } : c,
    );
    expect(judge(observerErred, true).outcome).toBe('reissue-refused');
    const silent = steps.map((c) => (c.step === 'reissue' ? { ...c, status: 'no-answer' as const } : c));
    expect(judge(silent.slice(0, 4), true).outcome).toBe('failed');
    expect(judge(steps.slice(0, 4), true).outcome).toBe('failed'); // no observation after the re-issue
  });
  it('an inconclusive tool whose re-issue ran says it was called twice', () => {
    const plain = ['observe-before', 'call', 'observe-after-call', 'reissue', 'observe-after-reissue'].map((s) =>
      call(s, s.startsWith('observe') ? '0' : 'r'),
    );
    expect(judge(plain, true).reason).toContain('called twice');
    expect(judge([call('call', 'a'), call('reissue', 'a')], false).reason).toContain('called twice');
  });
});

const probe = (outcome: ToolProbe['outcome'], calls: SentCall[] = []): ToolProbe => ({
  outcome,
  key: null,
  evidence: { reason: 'not in the plan: never called', calls, requests: calls.length, durationMs: 0 },
});

describe('countProbes', () => {
  it('counts reissue-refused, and a tool used only as an observer apart from not-probed', () => {
    const tools = [
      { name: 'move', probe: probe('reissue-refused', refusedWith('error', '0', '1', '1')) },
      { name: 'other', probe: probe('retry-safe', refusedWith('error', '0', '1', '1').slice(0, 3)) },
      { name: 'look', probe: probe('not-probed') },
      { name: 'idle', probe: probe('not-probed') },
    ];
    expect(countProbes(tools)).toEqual({
      retrySafe: 1,
      reissueRefused: 1,
      repeatedEffect: 0,
      inconclusive: 0,
      failed: 0,
      notProbed: 1,
      observers: 1,
      observerCalls: 5,
    });
    noteObservers(tools);
    expect(tools[2]!.probe.evidence.reason).toBe('not in the plan itself: called 5 times as an observer');
    expect(tools[3]!.probe.evidence.reason).toBe('not in the plan: never called');
  });
});

describe('safeLines', () => {
  it('a multi-line server error as lines, each still escaped, and bounded', () => {
    expect(safeLines('Error: boom\n    at x (\u001b[31m)\r\n')).toEqual(['Error: boom', '    at x (\\u001b[31m)', '']);
    const many = safeLines(Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n'));
    expect(many).toHaveLength(9);
    expect(many.at(-1)).toBe('(12 more lines)');
  });
});

describe('installAdvice', () => {
  it('names install with a target file, and for a server of the command line a command that takes one', () => {
    expect(installAdvice('/a/targets.json', '/c')).toBe('run `idemscan install /a/targets.json --cache-dir /c` first');
    const line = installAdvice('command line', '/my cache');
    expect(line).toContain("run `idemscan audit` with the same server and --cache-dir '/my cache' first");
    expect(line).not.toContain("install 'command line'");
  });
});

describe('probeTerminalLines', () => {
  it("a server's multi-line error as indented lines, escaped, none a workflow command; the conflict in words", () => {
    const failed: ToolProbe = {
      ...probe('failed', [call('call', 'x', 'tool-error')]),
      conflict: 'accepted',
    };
    failed.evidence.reason = 'call (t) answered isError: true (Error: boom\n::add-mask::x\n\u001b[2J)';
    const report = reportOf([serverReport([toolReport({ name: 't', probe: failed })])]);
    report.summary.probe = countProbes(report.servers[0]!.tools);
    const text = probeTerminalLines(report).join('');
    expect(text).toContain('      call (t) answered isError: true (Error: boom\n');
    expect(text).toContain('      \\u003a:add-mask::x\n');
    expect(text).toContain('      \\u001b[2J)\n');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('conflict accepted: the same key with other arguments was accepted');
    expect(probeSection(report)).toContain('(Error: boom<br>::add-mask::x<br>\\u001b[2J)</td>');
  });
});

describe('probe rows', () => {
  // Listed z, b, a; planned a (two cases), then z; b only observed.
  const ran = (n: string) => probe('retry-safe', [call('call', n)]);
  const tools = [
    toolReport({ name: 'z', probe: { ...ran('z'), outcome: 'repeated-effect' } }),
    toolReport({ name: 'b', probe: probe('not-probed') }),
    toolReport({
      name: 'a',
      probes: [
        { ...ran('a'), case: 1 },
        { ...ran('a'), case: 2, outcome: 'repeated-effect' },
      ],
    }),
  ];
  const report = reportOf([serverReport(tools)], { options: { probe: { tools: ['a', 'z'] } } });
  report.summary.probe = countProbes(tools);

  it('follow the plan, cases in their order, in the terminal, Markdown and HTML', () => {
    const at = (text: string) =>
      ['a case 1', 'a case 2', 'z'].map((n) =>
        text.indexOf(`${n}:`) >= 0 ? text.indexOf(`${n}:`) : text.indexOf(`>${n}<`),
      );
    const terminal = at(probeTerminalLines(report).join(''));
    expect(terminal.every((i) => i >= 0)).toBe(true);
    expect([...terminal].sort((x, y) => x - y)).toEqual(terminal);
    const md = probeMarkdown(report).filter(
      (l) => l.startsWith('| ') && !l.startsWith('| tool') && !l.startsWith('| ---'),
    );
    expect(md.map((l) => l.split(' | ')[0])).toEqual(['| a case 1', '| a case 2', '| z']);
    const html = probeSection(report);
    const cells = ['>a case 1<', '>a case 2<', '>z<'].map((c) => html.indexOf(c));
    expect(cells.every((i) => i >= 0)).toBe(true);
    expect([...cells].sort((x, y) => x - y)).toEqual(cells);
  });

  it('SARIF names the tool as its logical location, and the case in the message and properties', () => {
    const results = probeSarifResults(report, () => undefined, 0);
    expect(results.map((r) => r.locations?.[0]?.logicalLocations?.[0]?.name)).toEqual(['a', 'z']);
    const [caseTwo] = results;
    expect(caseTwo!.locations![0]!.logicalLocations![0]!.fullyQualifiedName).toBe(`${report.servers[0]!.name}/a`);
    expect(caseTwo!.message.text).toContain('a case 2');
    expect(caseTwo!.properties).toMatchObject({ tool: 'a', case: 2, experiment: 'a case 2' });
  });
});
