/** The trend section says when the two reports cover different lists, instead of comparing them silently. */
import { describe, expect, it } from 'vitest';
import { compareWith } from '../../src/compare/trend.js';
import { trendMarkdown } from '../../src/render/markdown-census.js';
import { trendSection } from '../../src/render/html/trend.js';
import { okServer, reportOf } from '../helpers/reports.js';

const read = { name: 'get', annotations: { readOnlyHint: true }, inputSchema: { type: 'object' } };
const at = (name: string, source: string) =>
  okServer(name, [read], { target: { transport: 'stdio', command: 'node', source: `${source}#${name}` } });

describe('comparedWith.differentList', () => {
  const older = reportOf([at('a', 'targets/reference.json'), at('b', 'targets/reference.json')]);

  it('is absent when both reports cover the same list, and the sections say nothing of it', () => {
    const newer = reportOf([at('a', 'targets/reference.json'), at('b', 'targets/reference.json')]);
    const c = compareWith(newer, { file: 'report.json', report: older, run: '2026-11-30' });
    expect(c.differentList).toBeUndefined();
    const withTrend = { ...newer, comparedWith: c };
    expect(trendMarkdown(withTrend).join('\n')).not.toContain('different lists');
    expect(trendSection(withTrend)).not.toContain('different lists');
  });

  it('is true when the lists differ (another file, or other entries), and both sections say so', () => {
    const newer = reportOf([at('a', 'targets/popular-npm.json'), at('c', 'targets/popular-npm.json')]);
    const c = compareWith(newer, { file: 'report.json', report: older, run: '2026-11-30' });
    expect(c.differentList).toBe(true);
    expect(c.serversInBoth).toBe(1);
    const withTrend = { ...newer, comparedWith: c };
    expect(trendMarkdown(withTrend).join('\n')).toContain(
      '**The two runs cover different lists: only the servers in both are compared.**',
    );
    expect(trendSection(withTrend)).toContain('<strong>The two runs cover different lists');
    const fewer = reportOf([at('a', 'targets/reference.json')]);
    expect(compareWith(fewer, { file: 'report.json', report: older }).differentList).toBe(true);
  });
});
