/** The post-processors as folds (app/scan/post-process.ts): one pass completes the head, every later pass reads the same servers. */
import { describe, expect, it } from 'vitest';
import { postProcess } from '../../src/app/scan/post-process.js';
import type { ReportHead } from '../../src/model/report-head.js';
import type { ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';

const unannotated = [{ name: 'write_a', description: 'Writes a.', inputSchema: { type: 'object' } }];
const list = Array.from({ length: 7 }, (_, i) => okServer(`s${i}`, unannotated));
/** A spool's servers: fresh objects on every pass, as each reading parses the file anew. */
const spooled = () => JSON.parse(JSON.stringify(list)) as ServerReport[];
const { servers: _servers, summary: _summary, ...head } = reportOf(list);

const suppressed = (servers: Iterable<ServerReport>) =>
  [...servers].flatMap((s) => s.tools.flatMap((t) => t.findings)).filter((f) => f.suppressed).length;

describe('postProcess', () => {
  it('marks the same findings on every pass and counts them once, in the head before the servers', async () => {
    const entries = [
      { rule: 'missing-annotations', server: 's0', reason: 'reviewed' },
      { rule: 'missing-annotations', tool: 'no_such_tool', reason: 'a typo' },
    ];
    const p = await postProcess(head as ReportHead, spooled, { suppress: { file: 'dir/.sup.json', entries } });
    expect(suppressed(p.stream.servers())).toBe(1);
    expect(suppressed(p.stream.servers())).toBe(1);
    expect(p.stream.head.options.suppress).toEqual({ file: '.sup.json', entries: 2, applied: 1, expired: 0 });
    expect(p.suppress?.unused.map((u) => u.index)).toEqual([1]);
    expect(p.stream.summary.servers).toBe(7);
  });

  it('--fail-on counts every match, names the first five, and never a suppressed finding', async () => {
    const p = await postProcess(head as ReportHead, spooled, {
      suppress: { file: 's.json', entries: [{ rule: 'missing-annotations', server: 's6', reason: 'ok' }] },
      failOn: { rules: new Set(['missing-annotations']), verdicts: new Set(), profiles: new Set() },
    });
    expect(p.failOn.map((l) => l.text)).toEqual([
      'missing-annotations (6 findings): s0/write_a, s1/write_a, s2/write_a, s3/write_a, s4/write_a and 1 more',
    ]);
  });

  it('a suppression naming a tool verdict accepts it: not counted by --fail-on, recorded on the tool and in the gate', async () => {
    const entries = [
      { verdict: 'unprotected' as const, tool: 'write_a', server: 's0', reason: 'reviewed', expires: '2999-01-01' },
      { verdict: 'unprotected' as const, tool: 'write_a', server: 's1', reason: 'old', expires: '2000-01-01' },
      { verdict: 'keyed' as const, tool: 'write_a', reason: 'not its verdict' },
    ];
    const p = await postProcess(head as ReportHead, spooled, {
      suppress: { file: 's.json', entries },
      failOn: { rules: new Set(), verdicts: new Set(['unprotected']), profiles: new Set() },
    });
    // s0's is accepted; s1's entry expired, so s1 still counts; the keyed entry matches no tool.
    expect(p.failOn.map((l) => l.text)).toEqual([
      'unprotected (6 tools): s1/write_a, s2/write_a, s3/write_a, s4/write_a, s5/write_a and 1 more',
    ]);
    for (let pass = 0; pass < 2; pass++) {
      const tools = [...p.stream.servers()].map((s) => s.tools[0]!);
      expect(tools[0]!.accepted).toEqual({
        verdict: 'unprotected',
        reason: 'reviewed',
        expires: '2999-01-01',
        file: 's.json',
      });
      expect(tools.slice(1).every((t) => t.accepted === undefined)).toBe(true);
    }
    expect(p.suppress).toMatchObject({ applied: 0, accepted: 1 });
    expect(p.suppress?.expired.map((e) => e.index)).toEqual([1]);
    expect(p.suppress?.unused.map((u) => u.index)).toEqual([2]);
    expect(p.stream.head.options.suppress).toEqual({ file: 's.json', entries: 3, applied: 0, expired: 1, accepted: 1 });
    expect(p.stream.head.gate).toEqual({
      failOn: ['unprotected'],
      verdicts: ['unprotected'],
      matched: 6,
      matches: [1, 2, 3, 4, 5, 6].map((i) => ({ server: `s${i}`, tool: 'write_a', verdict: 'unprotected' })),
      accepted: 1,
    });
  });

  it("the gate keeps one match per tool with every rule it matched, the server's own findings apart, and the first 50 only", async () => {
    // Written alike (uniform-hints, the server's own finding), and unprotected.
    const many = Array.from({ length: 60 }, (_, i) => ({
      name: `w${i}`,
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false },
    }));
    const servers = () => [okServer('big', many)];
    const { servers: _s, summary: _m, ...bigHead } = reportOf(servers());
    const failOn = {
      severity: 'warning' as const,
      rules: new Set(['uniform-hints']),
      verdicts: new Set(['unprotected' as const]),
      profiles: new Set<string>(),
    };
    const p = await postProcess(bigHead as ReportHead, servers, { failOn });
    const gate = p.stream.head.gate!;
    expect(gate.failOn).toEqual(['warning', 'uniform-hints', 'unprotected']);
    expect(gate.matched).toBe(61); // 60 tools, and the server for its own finding
    expect(gate.matches).toHaveLength(50);
    expect(gate.matches[0]).toEqual({ server: 'big', tool: 'w0', verdict: 'unprotected' });
    const few = () => [okServer('few', many.slice(0, 5))];
    const { servers: _f, summary: _n, ...fewHead } = reportOf(few());
    const q = await postProcess(fewHead as ReportHead, few, { failOn });
    expect(q.stream.head.gate!.matches.slice(-2)).toEqual([
      { server: 'few', tool: 'w4', verdict: 'unprotected' },
      { server: 'few', rules: ['uniform-hints'] },
    ]);
    // A server finding that names a tool (duplicate-tool-name) joins that tool's match: one line per tool.
    const twice = () => [okServer('dup', [many[0]!, many[0]!])];
    const { servers: _d, summary: _o, ...dupHead } = reportOf(twice());
    const dupOn = { ...failOn, severity: undefined, rules: new Set(['duplicate-tool-name']) };
    const d = await postProcess(dupHead as ReportHead, twice, { failOn: dupOn });
    const matches = d.stream.head.gate!.matches;
    expect(matches.filter((m) => m.tool === 'w0')).toHaveLength(2); // the two tools of that name
    expect(matches[0]).toEqual({ server: 'dup', tool: 'w0', verdict: 'unprotected', rules: ['duplicate-tool-name'] });
    expect(matches.some((m) => m.tool === 'w0' && m.verdict === undefined)).toBe(false);
  });

  it('settles the head before adding to it: the keys are written in that order', async () => {
    const settle = async (h: ReportHead, scanned: number) => ({
      ...h,
      options: { ...h.options, interrupted: true, scanned },
    });
    const p = await postProcess(head as ReportHead, spooled, { suppress: { file: 's.json', entries: [] } }, settle);
    expect(Object.keys(p.stream.head.options)).toEqual(['interrupted', 'scanned', 'suppress']);
  });
});
