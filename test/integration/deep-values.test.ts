/**
 * Values nested deep, through the built CLI: what a server sends (capabilities, serverInfo, a
 * tool's annotations) is kept up to MAX_JSON_DEPTH levels and cut to its scalar fields beyond, so
 * every report idemscan writes is read back by `report` and `merge` under the saved-file bound; a
 * report file nested deeper than that bound is a usage error naming the file, not a stack overflow.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/model/bounded-input.js';
import { Report } from '../../src/model/schema.js';
import { SAVED_BOUNDS } from '../../src/compare/read.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-deep-'));
const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('values nested deep', () => {
  it('are kept up to MAX_JSON_DEPTH, cut beyond, and the report reads back', { timeout: 60_000 }, async () => {
    const depths = [MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 200_000];
    const list = path.join(dir, 'deep.json');
    writeFileSync(
      list,
      JSON.stringify({
        servers: depths.map((d) => ({
          name: `deep-${d}`,
          command: process.execPath,
          args: [FIXTURES.hostile],
          env: { MODE: 'deep', DEPTH: String(d) },
        })),
      }),
    );
    const out = path.join(dir, 'out');
    const run = await idemscan(['scan', list, '--out', out, '--probe-timeout', '300', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = Report.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const [atBound, past, far] = depths.map((d) => report.servers.find((s) => s.name === `deep-${d}`)!);
    // 64 levels: kept as received (the annotations object is one of them).
    expect(atBound!.tools[0]!.annotations).toEqual({ readOnlyHint: true, nested: nested(MAX_JSON_DEPTH - 1) });
    expect(atBound!.capabilities).toEqual({ tools: {}, nested: nested(MAX_JSON_DEPTH - 1) });
    // 65 and 200,000 levels: the scalar fields only, the verdict untouched.
    for (const s of [past!, far!]) {
      expect(s.status, JSON.stringify(s.failure)).toBe('ok');
      expect(s.tools[0]!.annotations).toEqual({ _truncated: true, readOnlyHint: true });
      expect(s.tools[0]!.verdict).toBe('read-only');
      expect(s.capabilities).toMatchObject({ _truncated: true });
      expect(s.capabilities).not.toHaveProperty('nested');
    }
    // A serverInfo.name of 200,000 levels was a failed server ("Maximum call stack size exceeded").
    expect(far!.serverInfo?.name).toBe('(nested too deep)');

    const md = await idemscan([
      'report',
      path.join(out, 'report.json'),
      '--format',
      'md',
      '--out',
      path.join(dir, 'md'),
    ]);
    expect(md.exitCode, md.stderr).toBe(0);
    const merged = await idemscan(['merge', path.join(out, 'report.json'), '--json', path.join(dir, 'merged.json')]);
    expect(merged.exitCode, merged.stderr).toBe(0);
  });

  it('a report file nested deeper than a saved report may be is a usage error naming it', async () => {
    const file = path.join(dir, 'too-deep.json');
    const text = JSON.stringify(reportOf([okServer('s', [{ name: 't', annotations: { readOnlyHint: true } }])]));
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    writeFileSync(file, text.replace('"readOnlyHint":true', `"readOnlyHint":true,"nested":${deep}`));
    for (const args of [
      ['report', file, '--format', 'md', '--out', path.join(dir, 'md2')],
      ['merge', file, '--json', '-'],
      ['diff', file, file],
    ]) {
      const r = await idemscan(args);
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${file}: nested deeper than ${SAVED_BOUNDS.maxDepth} levels (line 1, column`);
    }
  });
});
