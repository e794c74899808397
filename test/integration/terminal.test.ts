/**
 * What the built CLI prints, through real fixture servers: the files written, a failed server's
 * stderr line under its row, audit's findings and rule pages, the server's own name, --fail-on's
 * tool list, -q, progress without a terminal, the Ctrl-C list, and the terminal path under script(1).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';
import { spawnLog } from '../helpers/processes.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-term-'));
function list(name: string, servers: unknown[]): string {
  writeFileSync(path.join(dir, name), JSON.stringify({ servers }));
  return name; // relative: the CLI runs in `dir`
}
const node = process.execPath;
const modern = { name: 'modern', command: node, args: [FIXTURES.modernStdio] };
const crash = { name: 'crash', command: node, args: [FIXTURES.raw], env: { MODE: 'crash' } };
const rules = (set: string) => ({ name: set, command: node, args: [FIXTURES.rules], env: { SET: set } });
const fast = ['--probe-timeout', '500', '--timeout', '10000'];
const run = (args: string[]) => idemscan(args, { cwd: dir });

describe('scan on the terminal', () => {
  it('says where it wrote each file, shows progress lines, and a failed server with its last stderr line under its row', async () => {
    const r = await run(['scan', list('two.json', [modern, crash]), '--out', 'out-a', '--format', 'json,md', ...fast]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('idemscan: wrote out-a/report.json\n');
    expect(r.stderr).toMatch(/^idemscan: wrote out-a\/report\.md$/m); // execa drops the last newline
    // Not a terminal: plain lines as each server finishes, no redrawn status line.
    expect(r.stderr).toMatch(/^\[\d\/2\] ok modern \(\d+\.\d s, 8 tools\)$/m);
    expect(r.stderr).toMatch(/^\[\d\/2\] failed crash \(\d+\.\d s\): exited$/m);
    expect(r.stderr).not.toContain('\r');
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('crash '));
    expect(lines[at + 1]).toMatch(/^ {4}exited: /);
    expect(lines[at + 2]).toBe('    stderr: fatal: could not open database /nonexistent');
    expect(r.stdout).toMatch(/^total +8 +1 +0 +2 +1 +4 +1 failed$/m);
    expect(r.stdout).toContain(
      '2 of 7 tools that are not read-only can be retried safely (29%), across 2 servers (1 failed to scan).',
    );
  });

  it('-q prints only errors: nothing for a clean scan, the failure for a failed server', async () => {
    const clean = await run(['scan', list('one.json', [modern]), '--out', 'out-q', '-q', ...fast]);
    expect(clean.exitCode).toBe(0);
    expect(clean.stdout).toBe('');
    expect(clean.stderr).toBe('');
    const failed = await run(['scan', list('two-q.json', [modern, crash]), '--out', 'out-q2', '-q', ...fast]);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toBe(
      'idemscan: crash failed: exited: the server exited with code 1; stderr: fatal: could not open database /nonexistent',
    );
  });

  it('--fail-on names the tools each rule and verdict matched, the first few and a count of the rest', async () => {
    const r = await run([
      'scan',
      list('findings.json', [rules('findings')]),
      '--out',
      'out-f',
      '-q',
      '--fail-on',
      'weak-key-only,unprotected',
      ...fast,
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('idemscan: --fail-on matched:\n');
    expect(r.stderr).toContain('  weak-key-only (2 findings): findings/submit_order, findings/place_bet\n');
    expect(r.stderr).toMatch(
      /^ {2}unprotected \((\d+) tools\): (findings\/[^,\n]+, ){4}findings\/[^,\n]+ and \d+ more$/m,
    );
  });
});

describe('audit on the terminal', () => {
  it("names the server from serverInfo, shows each finding's message and rule page, and a summary line", async () => {
    const r = await run(['audit', '--out', 'out-b', ...fast, '--', node, FIXTURES.legacyStdio]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^legacy-payments \(legacy-payments /);
    const report = Report.parse(JSON.parse(readFileSync(path.join(dir, 'out-b', 'report.json'), 'utf8')));
    expect(report.servers[0]!.name).toBe('legacy-payments');
    expect(r.stdout).not.toMatch(/^node /m);
    const flat = r.stdout.replace(/\s+/g, ' ');
    const finding = report.servers[0]!.tools.flatMap((t) => t.findings)[0]!;
    expect(flat).toContain(`${finding.tool}: ${finding.message}`.replace(/\s+/g, ' '));
    expect(r.stdout).toMatch(new RegExp(`^ +\\S*docs/rules/${finding.rule}\\.md$`, 'm'));
    expect(flat).toMatch(/8 tools: 1 read-only, 2 keyed, 1 idempotent, 4 unprotected; \d+ findings \(/);
    expect(r.stderr).toContain(`idemscan: wrote ${path.join('out-b', 'report.json')}`);

    const named = await run([
      'audit',
      '--out',
      'out-c',
      '--name',
      'mine',
      '--rules-base-url',
      'https://example.org/rules',
      ...fast,
      '--',
      node,
      FIXTURES.legacyStdio,
    ]);
    expect(named.stdout).toMatch(/^mine \(legacy-payments /);
    expect(named.stdout).toContain(`https://example.org/rules/${finding.rule}.md`);
  });
});

it('Ctrl-C lists the servers that were not scanned', { timeout: 90_000 }, async () => {
  const log = spawnLog();
  const env = { IDEMSCAN_FIXTURE_LOG: log.file };
  const hang = (name: string) => ({ name, command: node, args: [FIXTURES.raw], env: { ...env, MODE: 'hang' } });
  // Two at a time, the quick ones first: two "raw-hang" spawns mark that both quick ones are done.
  const file = list('interrupt.json', [
    { ...modern, env },
    { name: 'legacy', command: node, args: [FIXTURES.legacyStdio], env },
    hang('hang-1'),
    hang('hang-2'),
    hang('hang-3'),
  ]);
  const child = execa(node, [CLI, 'scan', file, '--out', 'out-i', '--concurrency', '2', '--timeout', '60000'], {
    reject: false,
    cwd: dir,
  });
  const deadline = Date.now() + 45_000;
  while (log.entries().filter((e) => e.name === 'raw-hang').length < 2 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGINT');
  const r = await child;
  expect(r.exitCode).toBe(130);
  expect(r.stderr).toMatch(
    /idemscan: not scanned \(3 of 5\): hang-1 \(stopped after \d+\.\d s\), hang-2 \(stopped after \d+\.\d s\), hang-3 \(not started\)\n/,
  );
  expect(r.stdout).toContain('interrupted: 2 of 5 servers scanned');
});

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

it.skipIf(!hasScript)(
  'on a terminal (script(1)): a redrawn status line, and the table fits its 80 columns',
  { timeout: 60_000 },
  async () => {
    const names = Array.from({ length: 3 }, (_, i) => ({
      ...modern,
      name: `a-server-name-far-too-long-for-a-narrow-terminal-number-${i}`,
    }));
    const file = path.join(dir, list('tty.json', names));
    const command = `stty cols 80 rows 40; ${node} ${CLI} scan ${file} --out ${path.join(dir, 'out-t')} --probe-timeout 500 --timeout 10000`;
    const r = await execa('script', ['-qfec', command, '/dev/null'], {
      reject: false,
      cwd: dir,
      env: { TERM: 'xterm', COLUMNS: '' },
    });
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toContain('\r\x1b[K');
    expect(r.stdout).toMatch(/scanned; running: a-server-name/);
    const table = r.stdout.split(/\r?\n/).filter((l) => l.startsWith('a-server-name') || l.startsWith('server '));
    expect(table.length).toBe(4);
    for (const line of table) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(new Set(table).size).toBe(4);
  },
);
