/** The post-processors as folds (app/post-process.ts): one pass completes the head, every later pass reads the same servers. */
import { describe, expect, it } from 'vitest';
import { postProcess } from '../../src/app/post-process.js';
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

  it('settles the head before adding to it: the keys are written in that order', async () => {
    const settle = async (h: ReportHead, scanned: number) => ({
      ...h,
      options: { ...h.options, interrupted: true, scanned },
    });
    const p = await postProcess(head as ReportHead, spooled, { suppress: { file: 's.json', entries: [] } }, settle);
    expect(Object.keys(p.stream.head.options)).toEqual(['interrupted', 'scanned', 'suppress']);
  });
});
