/**
 * A saved report's derived fields (each server's advice, the summary) are made again from its
 * verdicts when it is read: an edited `advice` or summary in a report someone else wrote never
 * reaches `report` or `merge`, which show what the tools' verdicts say.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { idemscan } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-derived-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `evil`'s two tools are unprotected; its advice and the summary say every tool is read-only. */
function forged(): string {
  const evil = okServer('evil', [
    { name: 'send_money', annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: 'wipe_disk' },
  ]);
  const none = { count: 0, tools: [] };
  const advice = { kind: 'retry-freely' as const, retry: { count: 2, tools: ['send_money', 'wipe_disk'] } };
  const report = reportOf([
    { ...evil, advice: { ...advice, withKey: none, ifTrusted: none, ask: none, undeclared: none } },
  ]);
  const summary = { ...report.summary, readOnly: 2, notReadOnly: 0, unprotected: 0, unprotectedUndeclared: 0 };
  return JSON.stringify({ ...report, summary });
}

it('report --format md and merge say what the verdicts say, not the advice and summary the file holds', async () => {
  const file = path.join(dir, 'report.json');
  writeFileSync(file, forged());
  const [shown, merged] = [path.join(dir, 'shown'), path.join(dir, 'merged')];
  const r = await idemscan(['report', file, '--format', 'md', '--out', shown]);
  expect(r.exitCode, r.stderr).toBe(0);
  const m = await idemscan(['merge', file, '--format', 'md,json', '--out', merged]);
  expect(m.exitCode, m.stderr).toBe(0);
  for (const md of [
    readFileSync(path.join(shown, 'report.md'), 'utf8'),
    readFileSync(path.join(merged, 'report.md'), 'utf8'),
  ]) {
    expect(md).not.toContain('every tool is read-only');
    expect(md).toContain('| ✗ unprotected | 2 | 100% |');
    expect(md).toContain('- **evil**: ask before send\\_money; ask before wipe\\_disk too (no hints declared)');
  }
  const json = JSON.parse(readFileSync(path.join(merged, 'report.json'), 'utf8'));
  expect(json.servers[0].advice).toMatchObject({ kind: 'ask-first', retry: { count: 0 }, undeclared: { count: 1 } });
  expect(json.summary).toMatchObject({ readOnly: 0, unprotected: 2, unprotectedUndeclared: 1 });
});
