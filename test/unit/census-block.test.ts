/**
 * The README's census block is what the generator prints for the newest run of output/ecosystem,
 * and the committed index lists every run directory: figures typed by hand cannot drift again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIndex, readmeBlock, replaceBlock } from '../../src/census/publish/run-index.js';
import { parseReport } from '../../src/compare/read.js';
import { indexOf, isRunDirName, runEntry } from '../../src/census/publish/index-format.js';
import { BLOCK_END, BLOCK_START, censusBlock } from '../../src/census/publish/census-block.js';
import { okServer, reportOf as reportOfServers } from '../helpers/reports.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const root = path.join(repo, 'output/ecosystem');
const readme = path.join(repo, 'README.md');
const reportOf = (dir: string) => parseReport(readFileSync(path.join(root, dir, 'report.json'), 'utf8'), dir);

describe('the README census block', () => {
  it('equals the block generated from the newest run in output/ecosystem/index.json', async () => {
    const index = await readIndex(root);
    const newest = index.runs[0]!;
    const text = readFileSync(readme, 'utf8');
    const block = text.slice(text.indexOf(BLOCK_START), text.indexOf(BLOCK_END) + BLOCK_END.length + 1);
    expect(block).toBe(readmeBlock(root, readme, index, newest, reportOf(newest.dir)));
  });

  it('replaceBlock swaps only what is between the markers, and refuses a file without them', () => {
    const text = `a\n${BLOCK_START}\nold 1,234\n${BLOCK_END}\nb\n`;
    expect(replaceBlock(text, `${BLOCK_START}\nnew\n${BLOCK_END}\n`)).toBe(`a\n${BLOCK_START}\nnew\n${BLOCK_END}\nb\n`);
    expect(() => replaceBlock('no markers', 'x')).toThrow(/no <!-- census:start -->/);
  });

  it('counts one changed hint and one new keyed tool in the singular', () => {
    const report = reportOf('2026-11-30');
    const tool = { server: 'firecrawl', tool: 'firecrawl_scrape' };
    const changes = [
      { kind: 'verdict-changed', ...tool, direction: 'better', from: 'unprotected', to: 'keyed' },
      { kind: 'annotation-changed', ...tool, direction: 'worse', hint: 'readOnlyHint', from: 'true', to: 'false' },
    ];
    const one = {
      ...report,
      comparedWith: { ...report.comparedWith!, diff: { ...report.comparedWith!.diff, changes } },
    };
    const links = {
      run: 'output/ecosystem/2026-11-30',
      files: [],
      index: 'output/ecosystem',
      command: 'idemscan index',
    };
    expect(censusBlock(one as typeof report, links)).toContain(
      'include 1 server whose tools or hints changed (1 hint removed or weakened, 1 new keyed tool).',
    );
  });
});

describe('the census block names its population', () => {
  const links = { run: 'runs/2026-12-02', files: [], index: 'runs', command: 'idemscan index runs' };
  const pkg = (name: string) => ({ transport: 'stdio' as const, npm: `${name}@1.0.0`, downloads: 100 });
  const write = [{ name: 'write', inputSchema: { type: 'object' } }];
  const read = [{ name: 'read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];
  const packages = [okServer('a', write, { target: pkg('a') }), okServer('b', write, { target: pkg('b') })];
  const remote = okServer('r', [...write, ...write, ...write, ...read], {
    target: { transport: 'sse', url: 'https://example.com/sse' },
  });

  it('calls npm packages run on stdio so, in the lead, the table and the sentences', () => {
    const block = censusBlock(reportOfServers(packages), links);
    expect(block).toContain('2 list entries, 2 of them scanned, all npm packages run on stdio.');
    expect(block).toContain('| population | servers scanned |');
    expect(block).toContain('| npm packages run on stdio | 2 | 2 | 2 |');
    expect(block).toContain('Of the 2 tools that are not read-only, on 2 npm packages run on stdio, **0 (0%)');
    expect(block).toContain('of these npm packages run on stdio go to servers with at least one unprotected tool');
  });

  it('keeps remote servers apart: a row and a paragraph of their own, the stdio figures without them', () => {
    const block = censusBlock(reportOfServers([...packages, remote]), links);
    expect(block).toContain(
      '3 of them scanned: 2 npm packages run on stdio and 1 remote server over SSE, each counted apart.',
    );
    expect(block).toContain('| npm packages run on stdio | 2 | 2 | 2 |');
    expect(block).toContain('| remote servers over SSE | 1 | 4 | 3 |');
    expect(block).toContain('Of the 2 tools that are not read-only, on 2 npm packages run on stdio,');
    expect(block).toContain('\n\nOf the 3 tools that are not read-only, on 1 remote server over SSE,');
    expect(block).not.toContain('| 3 | 6 |'); // no pooled row
  });
});

describe('output/ecosystem/index.json', () => {
  it('is the index rebuilt from every run directory, newest first', async () => {
    const dirs = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && isRunDirName(d.name))
      .map((d) => d.name);
    const rebuilt = indexOf(
      dirs.map((d) => {
        const made = runEntry(d, reportOf(d), readdirSync(path.join(root, d)));
        if ('error' in made) throw new Error(`${d}: ${made.error}`);
        return made.entry;
      }),
    );
    expect(await readIndex(root)).toEqual(rebuilt);
    expect(rebuilt.runs.map((r) => r.dir)).toEqual(['2026-12-02', '2026-12-01', '2026-11-30', '2026-11-29']);
  });
});
