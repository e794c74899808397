/**
 * `--sarif-uri` (issue 20): SARIF results point at the server's source file in the repository, not
 * at the placeholder `mcp-server/<name>`; paths outside the repository are usage errors.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Log } from 'sarif';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sarifValidator } from '../helpers/sarif.js';

const repo = mkdtempSync(path.join(os.tmpdir(), 'idemscan-sarif-uri-'));
mkdirSync(path.join(repo, 'src', 'my server'), { recursive: true });
writeFileSync(path.join(repo, 'src', 'my server', 'index.ts'), '// the server\n');
writeFileSync(path.join(repo, 'src', 'other.ts'), '// another\n');
const fast = ['--probe-timeout', '500', '--timeout', '15000'];
const validate = sarifValidator();

function sarifOf(dir: string): Log {
  const log = JSON.parse(readFileSync(path.join(dir, 'report.sarif'), 'utf8')) as Log;
  expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  return log;
}
const uris = (log: Log) =>
  new Set(
    log.runs[0]!.results!.map(
      (r) =>
        `${r.locations![0]!.physicalLocation!.artifactLocation!.uriBaseId}:${r.locations![0]!.physicalLocation!.artifactLocation!.uri}`,
    ),
  );

describe('--sarif-uri', () => {
  it('a bare PATH: every result of a one-server audit points at that file under %SRCROOT%', async () => {
    const out = path.join(repo, 'out-audit');
    const r = await idemscan(
      [
        'audit',
        '--format',
        'json,sarif',
        '--out',
        out,
        '--sarif-uri',
        './src/my server/index.ts',
        ...fast,
        '--env',
        'SET=findings',
        '--',
        process.execPath,
        FIXTURES.rules,
      ],
      { cwd: repo },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
    const log = sarifOf(out);
    expect(log.runs[0]!.results!.length).toBeGreaterThan(3);
    expect(uris(log)).toEqual(new Set(['%SRCROOT%:src/my%20server/index.ts']));
  });

  it('NAME=PATH per server in a scan, by the name the table shows; the others keep their target file', async () => {
    const list = path.join(repo, 'targets.json');
    const server = (name: string) => ({
      name,
      command: process.execPath,
      args: [FIXTURES.rules],
      env: { SET: 'findings' },
    });
    writeFileSync(list, JSON.stringify({ servers: [server('alpha'), server('beta'), server('gamma')] }));
    const out = path.join(repo, 'out-scan');
    const r = await idemscan(
      [
        'scan',
        'targets.json',
        '--format',
        'sarif',
        '--out',
        out,
        '--sarif-uri',
        'alpha=src/other.ts',
        '--sarif-uri',
        'beta=src/my server/index.ts',
        '--sarif-uri',
        'nobody=src/other.ts',
        ...fast,
      ],
      { cwd: repo },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('--sarif-uri: no server is named "nobody"');
    const log = sarifOf(out);
    const byServer = new Map<string, Set<string>>();
    for (const res of log.runs[0]!.results!) {
      const name = String(res.properties!.server);
      const loc = res.locations![0]!.physicalLocation!.artifactLocation!;
      byServer.set(name, (byServer.get(name) ?? new Set()).add(`${loc.uriBaseId}:${loc.uri}`));
    }
    expect(byServer.get('alpha')).toEqual(new Set(['%SRCROOT%:src/other.ts']));
    expect(byServer.get('beta')).toEqual(new Set(['%SRCROOT%:src/my%20server/index.ts']));
    expect(byServer.get('gamma')).toEqual(new Set(['%SRCROOT%:targets.json']));
  });

  it('report re-renders a saved report with it, and warns of a path that is no file', async () => {
    const out = path.join(repo, 'out-audit');
    const r = await idemscan(
      [
        'report',
        path.join(out, 'report.json'),
        '--format',
        'sarif',
        '--out',
        path.join(repo, 'out-report'),
        '--sarif-uri',
        'src/missing.ts',
      ],
      { cwd: repo },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('src/missing.ts is not a file under');
    expect(uris(sarifOf(path.join(repo, 'out-report')))).toEqual(new Set(['%SRCROOT%:src/missing.ts']));
  });

  it.concurrent.each([
    ['../elsewhere/x.ts', /"\.\." leaves the repository/],
    ['src/../../x.ts', /"\.\." leaves the repository/],
    ['/etc/passwd', /an absolute path/],
    ['https://evil.example/x', /not a URL or a drive/],
    ['file:src/x.ts', /not a URL or a drive/],
    ['C:\\src\\x.ts', /not a URL or a drive|use \//],
    ['src\\x.ts', /use \/ between directories/],
    ['src//x.ts', /not a file path/],
    ['=src/x.ts', /expected NAME=PATH or PATH/],
    ['a\u001b[31m.ts', /control character/],
  ])('%j is a usage error before any scan', async (value, message) => {
    const r = await idemscan(
      [
        'audit',
        '--format',
        'sarif',
        '--out',
        path.join(repo, 'never'),
        '--sarif-uri',
        value,
        '--',
        process.execPath,
        FIXTURES.rules,
      ],
      { cwd: repo },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('\u001b');
  });

  it('a bare PATH given twice, or a name mapped twice, is a usage error', async () => {
    const twice = await idemscan(
      ['audit', '--sarif-uri', 'a.ts', '--sarif-uri', 'b.ts', '--', process.execPath, FIXTURES.rules],
      { cwd: repo },
    );
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('given twice');
    const mapped = await idemscan(
      ['audit', '--sarif-uri', 's=a.ts', '--sarif-uri', 's=b.ts', '--', process.execPath, FIXTURES.rules],
      { cwd: repo },
    );
    expect(mapped.exitCode).toBe(2);
    expect(mapped.stderr).toContain('mapped twice');
  });
});
